"""Approximate nearest neighbours for library-wide dense search (HNSW, ``usearch``).

A small interface (``DenseAnn``) so another backend (pgvector, issue 15) can stand in. The
usearch index lives in one file next to the library file and is opened memory-mapped
(``view``) when it is up to date; a sidecar JSON says which change-log generation and model it
reflects. Keys are chunk row ids; scores are cosines (vectors are unit length).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 256
"""HNSW settings (M, efConstruction, ef). On vectors drawn like real e5 ones (a Gaussian fitted
to them, a pessimistic stand-in) ef 128 -> 256 raised recall@10 from 0.87 to 0.96 at 20k and
from 0.66 to 0.80 at 100k, for +1-1.5 ms per query (bench/results/ann_real.md)."""
WIDER_SEARCH = ((100_000, 2 * EXPANSION_SEARCH), (500_000, 4 * EXPANSION_SEARCH))
"""(index size, ef) from which the search expansion widens: recall@10 falls with size at a
fixed ef. On 136k real e5 vectors ef 256 -> 512 raised it from 0.963-0.972 to 0.987-0.989; on a
million (the real ones plus points between real neighbours) ef 512 gave 0.974 with one
question finding none of its true top 10, ef 1024 0.993 (worst 0.4), for 2.3 -> 4.4 ms CPU
per query (bench/results/ann_real.md)."""


HARDER = 4
"""How many times wider a ``harder`` search looks (asked before saying "no good match": at
ef 512, one of 300 real questions had its best cosine under the 0.85 floor only because HNSW
missed its true best, on 136k real e5 vectors in one build and on a million real-plus-derived
ones in another; at 1024 and wider none did, bench/results/ann_real.md)."""


def expansion_for(size: int) -> int:
    """The search expansion (ef) for an index of ``size`` vectors."""
    return max([EXPANSION_SEARCH] + [ef for start, ef in WIDER_SEARCH if size >= start])


class DenseAnn(Protocol):
    """Approximate top-k by inner product over (row id, unit vector) pairs."""

    def __len__(self) -> int: ...

    def add(self, rows: np.ndarray, vectors: np.ndarray) -> None: ...

    def remove(self, rows: Sequence[int]) -> None: ...

    def search(self, query: np.ndarray, k: int, *,
               harder: bool = False) -> list[tuple[int, float]]: ...


def ann_available() -> bool:
    try:
        _usearch()
    except ImportError:
        return False
    return True


def _usearch() -> Any:
    """usearch's ``Index`` class, with onnxruntime's extension loaded first where installed:
    onnxruntime 1.31 segfaults when its extension is loaded after usearch 2.26's (a process
    that searched library-wide, then embedded with e5, crashed). The other order works, and
    the import costs ~0.15 s, only where the HNSW index is used."""
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index


class UsearchAnn:
    """HNSW over float16 vectors; ``open`` memory-maps a saved, up-to-date file."""

    def __init__(self, dim: int, viewed: Path | None = None, *, threads: int = 1) -> None:
        Index = _usearch()
        self.dim = dim
        self.threads = threads
        self.ef: int | None = None
        """A fixed search expansion (benchmarks); None: ``expansion_for`` the index's size."""
        self._viewed = viewed
        self._index: Any = _restore(viewed, view=True) if viewed else Index(
            ndim=dim, metric="ip", dtype="f16", connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD, expansion_search=EXPANSION_SEARCH)
        self.dirty = False

    @classmethod
    def open(cls, path: Path, dim: int, stamp: dict[str, Any]) -> UsearchAnn | None:
        """The saved index at ``path`` if its sidecar matches ``stamp``, else None."""
        meta = _sidecar(path)
        if not path.is_file() or not meta.is_file():
            return None
        try:
            if json.loads(meta.read_text()) != stamp:
                return None
            opened = cls(dim, path)
        except (OSError, ValueError, RuntimeError, AttributeError):
            return None
        return opened if opened._index.ndim == dim else None

    def __len__(self) -> int:
        return len(self._index)

    def keys(self) -> np.ndarray:
        """Every row id held, as int64."""
        return np.asarray(self._index.keys, dtype=np.int64) if len(self._index) else \
            np.zeros(0, dtype=np.int64)

    def add(self, rows: np.ndarray, vectors: np.ndarray, *, threads: int | None = None) -> None:
        """Insert vectors under row ids, on ``threads`` (default: the index's own)."""
        if len(rows):
            self._writable()
            self._index.add(np.asarray(rows, dtype=np.uint64), np.asarray(vectors, np.float32),
                            threads=threads or self.threads)
            self.dirty = True

    def remove(self, rows: Sequence[int]) -> None:
        if len(rows):
            self._writable()
            self._index.remove(np.asarray(list(rows), dtype=np.uint64))
            self.dirty = True

    def search(self, query: np.ndarray, k: int, *,
               harder: bool = False) -> list[tuple[int, float]]:
        """Approximate top ``k``; ``harder`` looks ``HARDER`` times wider."""
        if k <= 0 or len(self._index) == 0:
            return []
        ef = (self.ef or expansion_for(len(self._index))) * (HARDER if harder else 1)
        if self._index.expansion_search != ef:
            self._index.expansion_search = ef
        found = self._index.search(np.asarray(query, dtype=np.float32), k, threads=1)
        return [(int(key), 1.0 - float(dist)) for key, dist in zip(found.keys, found.distances,
                                                                   strict=True)]

    def save(self, path: Path, stamp: dict[str, Any]) -> None:
        """Write the index and its sidecar atomically (a reader never sees half a file)."""
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        self._index.save(str(partial))
        partial.replace(path)
        _sidecar(path).write_text(json.dumps(stamp))
        self.dirty = False

    def _writable(self) -> None:
        """A memory-mapped view is read-only (changing one crashes usearch): load a private
        copy of the file before the first change."""
        if self._viewed is not None:
            self._index = _restore(self._viewed, view=False)
            self._viewed = None


def _restore(path: Path, *, view: bool) -> Any:
    index: Any = _usearch().restore(str(path), view=view)
    if index is None:
        raise ValueError(f"not a usearch index: {path}")
    return index


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def read_stamp(path: Path) -> dict[str, object] | None:
    """The sidecar of the index file at ``path`` (model, dim, generation), or None."""
    meta = _sidecar(path)
    try:
        return dict(json.loads(meta.read_text())) if meta.is_file() else None
    except (OSError, ValueError):
        return None
