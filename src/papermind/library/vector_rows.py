"""Dense search rows in memory: ids, float32 vectors and the filter columns, as codes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

import numpy as np

from papermind.domain import ChunkKind, SectionKind
from papermind.library.fulltext import SearchFilters

SECTION_KINDS: tuple[str, ...] = get_args(SectionKind)
CHUNK_KINDS: tuple[str, ...] = get_args(ChunkKind)


@dataclass
class Rows:
    """Index rows of one paper (or of all papers): ids, vectors and filter columns."""

    rows: np.ndarray
    matrix: np.ndarray
    section: np.ndarray
    kind: np.ndarray
    year: np.ndarray

    @staticmethod
    def concat(parts: Sequence[Rows], dim: int) -> Rows:
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            return Rows(empty, np.zeros((0, dim), np.float32), empty.astype(np.int8),
                        empty.astype(np.int8), empty.astype(np.int32))
        return Rows(*(np.concatenate([getattr(p, f) for p in parts])
                      for f in ("rows", "matrix", "section", "kind", "year")))

    @staticmethod
    def decode(records: Sequence[Sequence[Any]], dim: int) -> Rows:
        """Rows from SQL records (id, paper id, section kind, kind, year, float16 vector)."""
        if not records:
            return Rows.concat([], dim)
        ids = np.fromiter((r[0] for r in records), np.int64, len(records))
        matrix = np.frombuffer(b"".join(r[5] for r in records), dtype=np.float16)
        return Rows(
            ids, matrix.reshape(len(records), dim).astype(np.float32),
            np.fromiter((SECTION_KINDS.index(r[2]) for r in records), np.int8, len(records)),
            np.fromiter((CHUNK_KINDS.index(r[3]) for r in records), np.int8, len(records)),
            np.fromiter((-1 if r[4] is None else r[4] for r in records), np.int32, len(records)))

    def mask(self, filters: SearchFilters, dropped: np.ndarray | None = None) -> np.ndarray | None:
        """Rows that pass the filters (None = all), by table lookup on the code columns;
        ``dropped``: row ids that never pass (the excluded papers' rows)."""
        keep: np.ndarray | None = None
        if dropped is not None and dropped.size:
            keep = np.isin(self.rows, dropped, invert=True)
        tests = [(self.section, SECTION_KINDS, filters.section_kinds),
                 (self.kind, CHUNK_KINDS, filters.kinds)]
        for column, names, wanted in tests:
            if wanted and set(wanted) != set(names):
                allowed = np.zeros(len(names), dtype=bool)
                allowed[[names.index(w) for w in wanted]] = True
                part = allowed[column]
                keep = part if keep is None else keep & part
        if filters.year_min is not None:
            part = self.year >= filters.year_min
            keep = part if keep is None else keep & part
        if filters.year_max is not None:
            part = (self.year <= filters.year_max) & (self.year >= 0)
            keep = part if keep is None else keep & part
        return keep


def exact(rows: Rows, query: np.ndarray, k: int,
          keep: np.ndarray | None) -> list[tuple[int, float]]:
    """The top ``k`` (row id, cosine) of ``rows`` (``keep``: those that may be returned)."""
    scores = rows.matrix @ np.asarray(query, dtype=np.float32)
    if keep is not None:
        scores = np.where(keep, scores, -np.inf)
    top = np.argpartition(-scores, k - 1)[:k] if k < scores.size else np.arange(scores.size)
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(rows.rows[i]), float(scores[i])) for i in top if np.isfinite(scores[i])]


def split_by_paper(rows: Rows, paper_ids: list[str]) -> dict[str, Rows]:
    """Views of ``rows`` per paper (the records arrive sorted by paper)."""
    out: dict[str, Rows] = {}
    start = 0
    for i in range(1, len(paper_ids) + 1):
        if i == len(paper_ids) or paper_ids[i] != paper_ids[start]:
            out[paper_ids[start]] = Rows(rows.rows[start:i], rows.matrix[start:i],
                                         rows.section[start:i], rows.kind[start:i],
                                         rows.year[start:i])
            start = i
    return out
