"""Dense side of search on SQLite: cosine over the cached chunk embeddings
(``library.embedding_cache``).

Library-wide, from ``ann_min_rows`` vectors, an HNSW index in a file next to the library
answers without reading any vector. The papers changed since the file was saved are a delta:
their current rows are read and searched exactly beside it, and their keys in the file are
skipped; only a large delta is folded into the index and the file rewritten. A filter too
narrow for the index reads only the rows it passes (kept per filter, bounded). Otherwise
search is exact over float32 matrices per paper (a dot product is the cosine), read paper by
paper as searches need them and kept in step with the change log, so writes by other
processes show up on the next search.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from papermind.db import SqlDatabase
from papermind.library.ann import UsearchAnn, ann_available, read_stamp
from papermind.library.chunk_store import ALL_PAPERS, ChunkStore
from papermind.library.fulltext import NO_FILTERS, SearchFilters
from papermind.library.vector_rows import Rows, exact, split_by_paper

WIDEN = 8
"""How much further a filtered HNSW search looks before it gives up for exact search."""
PASSING_ROWS = 200_000
"""Rows kept for filters too narrow for the HNSW index (about 300 MB at 384 dimensions): each
such filter reads only the rows it passes. A filter passing more makes the process load every
row once and keep them, as a library too small for the index always does."""
REBUILD_PAPERS = 5_000
"""More changed papers than this since the HNSW file was saved: rebuild it from every row."""
DELTA_PAPERS = 64
DELTA_ROWS = 2_000
DELTA_SHARE = 50
"""The changed papers stay a delta beside the HNSW file while they are at most ``DELTA_PAPERS``
with at most max(``DELTA_ROWS``, index size / ``DELTA_SHARE``) rows; past that they are
folded into the index and the file is rewritten (at 243k chunks, rewriting it for a one-paper
`add` took 1.4 s: a writable copy of the memory-mapped file, then the save)."""


class VectorIndex:
    """Cosine search over the cached embeddings of the indexed chunks: brute force within
    papers and for small libraries; an HNSW index (``library.ann``) library-wide once there
    are ``ann_min_rows`` vectors (None: never)."""

    def __init__(self, db: SqlDatabase, store: ChunkStore, model: str, dim: int, *,
                 ann_min_rows: int | None = None) -> None:
        self.db = db
        self.store = store
        self.model = model
        self.dim = dim
        self.ann_min_rows = ann_min_rows if ann_min_rows is None or ann_available() else None
        self._papers: dict[str, Rows] | None = None
        """Rows by paper: of every paper when ``_complete``, else of those searched so far."""
        self._complete = False
        self._passing: OrderedDict[tuple[str, tuple[object, ...]], tuple[int, Rows]] = \
            OrderedDict()
        """Per filter too narrow for the HNSW index (its SQL), the rows it passes and the
        generation they are of; least recently used first, ``PASSING_ROWS`` rows in all."""
        self._all: Rows | None = None
        self._generation = 0
        self._ann: UsearchAnn | None = None
        self._ann_generation = -1
        self._delta: tuple[int, dict[str, Rows]] | None = None
        """The current rows of the papers changed since ``_ann_generation`` (empty: removed),
        and the generation they are of."""
        self._lock = threading.Lock()

    def search(self, query: np.ndarray, k: int, filters: SearchFilters = NO_FILTERS, *,
               harder: bool = False) -> list[tuple[int, float]]:
        """Top ``k`` (row, cosine) among the chunks that pass ``filters`` (``harder``: the
        HNSW index looks wider). Library-wide with the HNSW index, no vector but the changed
        papers' (the delta) is loaded: a new process answers from the memory-mapped file."""
        if k <= 0:
            return []
        with self._lock:  # the HNSW index is searched under the lock: a sync mutates it
            if not filters.paper_ids and (ann := self._ann_in_step()) is not None:
                found = self._filtered_ann(ann, query, k, filters, harder)
                if found is not None:
                    return found
                if not self._complete and (passing := self._passing_rows(filters)) is not None:
                    return exact(passing, query, k, None)
                self._passing.clear()  # too many pass: every row is loaded below, and kept
            if filters.paper_ids:
                papers = self._refresh(filters.paper_ids)
                rows = Rows.concat([papers[p] for p in dict.fromkeys(filters.paper_ids)
                                    if p in papers], self.dim)
            else:
                rows = self._every_row()
                papers = self._papers or {}
            dropped = Rows.concat([papers[p] for p in filters.exclude_papers if p in papers],
                                  self.dim).rows if filters.exclude_papers else None
        if rows.rows.size == 0:
            return []
        return exact(rows, query, k, rows.mask(filters, dropped))

    def count(self) -> int:
        """Embedded chunks in the library: read off the HNSW index and its delta when there
        is one, approximately (the changed papers' stale keys in the index are counted too:
        at most ``DELTA_PAPERS`` papers; the floor needs the size only under 8,000 chunks)."""
        with self._lock:
            if (ann := self._ann_in_step()) is not None:
                delta = self._delta[1] if self._delta is not None else {}
                return len(ann) + sum(rows.rows.size for rows in delta.values())
            return sum(rows.rows.size for rows in self._refresh().values())

    def catch_up(self, threads: int = 1) -> None:
        """Bring the HNSW index up to date now, building on ``threads`` (a bulk add ends
        with it, so the next search, in this process or a new one, finds the index ready; a
        few changed papers stay a delta and the file is not rewritten)."""
        with self._lock:
            self._ann_in_step(threads)

    def _passing_rows(self, filters: SearchFilters) -> Rows | None:
        """The rows a filter too narrow for the HNSW index passes, read alone (through the
        section and year indexes) and kept for the next search with it (the floor check, a
        server's next question); None when more than ``PASSING_ROWS`` pass."""
        where, params = filters.sql()
        key = (where, tuple(params))
        generation = self.store.generation()
        held = self._passing.pop(key, None)
        if held is None or held[0] != generation:
            rows = self._load(None, filters, limit=PASSING_ROWS + 1)[0]
            if rows.rows.size > PASSING_ROWS:
                return None
            held = (generation, rows)
        self._passing[key] = held
        while sum(rows.rows.size for _, rows in self._passing.values()) > PASSING_ROWS:
            self._passing.popitem(last=False)
        return held[1]

    def _every_row(self) -> Rows:
        """Every embedded chunk, up to date with the change log."""
        papers = self._refresh()
        if self._all is None:
            self._all = Rows.concat(list(papers.values()), self.dim)
        return self._all

    def _filtered_ann(self, ann: UsearchAnn, query: np.ndarray, k: int,
                      filters: SearchFilters, harder: bool) -> list[tuple[int, float]] | None:
        """HNSW candidates that pass the filters (checked in SQL on the candidates' chunk
        rows), looking ``WIDEN`` times further when too few pass (a section filter keeps one
        chunk in eight), merged with an exact search over the delta; None when still fewer
        than ``k`` pass (search exactly instead)."""
        delta = self._delta[1] if self._delta is not None else {}
        checked = replace(filters, exclude_papers=(*filters.exclude_papers, *delta)) \
            if delta else filters  # the changed papers' keys in the index are stale
        excluded = set(filters.exclude_papers)
        changed = Rows.concat([rows for paper, rows in delta.items() if paper not in excluded],
                              self.dim)
        extra = exact(changed, query, k, changed.mask(filters)) if changed.rows.size else []
        where, params = checked.sql()
        for want in (max(4 * k, 64), max(4 * k, 64) * WIDEN):
            found = ann.search(query, min(want, len(ann)), harder=harder)
            rows = self.db.query(
                f"SELECT c.id FROM search_chunks AS c WHERE c.id IN ({','.join('?' * len(found))})"
                f" AND {where}", [*(row for row, _ in found), *params]) if found else []
            passing = {int(r[0]) for r in rows}
            hits = [hit for hit in found if hit[0] in passing]
            exhausted = len(found) < min(want, len(ann)) or want >= len(ann)
            if len(hits) >= k or (exhausted and len(hits) + len(extra) >= k):
                return sorted(hits + extra, key=lambda hit: -hit[1])[:k]
            if exhausted:
                return None
        return None

    def _ann_in_step(self, threads: int = 1) -> UsearchAnn | None:
        """The HNSW index over every embedded chunk, brought in step with the change log
        (opened from its file, updated or built on ``threads``), or None (off, or under
        ``ann_min_rows``). The papers changed since its generation are read into the delta;
        only a delta past the ``DELTA_*`` bounds is folded in and the file saved."""
        if self.ann_min_rows is None:
            return None
        if self._ann is None:
            self._open_saved()
        ann, generation = self._ann, self.store.generation()
        if ann is None or self._ann_generation != generation:
            latest, changed = (generation, {ALL_PAPERS}) if ann is None \
                or self._ann_generation < 0 else self.store.changes_since(self._ann_generation)
            if ann is None or ALL_PAPERS in changed or len(changed) > REBUILD_PAPERS:
                rows = self._every_row()
                if rows.rows.size < self.ann_min_rows:
                    return None
                ann = self._ann = UsearchAnn(self.dim)
                ann.add(rows.rows, rows.matrix, threads=threads)
                self._ann_generation, self._delta = self._generation, None
            else:
                if self._delta is None or self._delta[0] != latest:
                    self._delta = (latest, self._changed_rows(sorted(changed)))
                if len(changed) > DELTA_PAPERS or sum(p.rows.size for p in self._delta[1].values()) \
                        > max(DELTA_ROWS, len(ann) // DELTA_SHARE):
                    self._apply(ann, self._delta[1], threads)
                    self._ann_generation, self._delta = latest, None
            path = self._ann_path()
            if path is not None and ann.dirty:
                ann.save(path, {"model": self.model, "dim": self.dim,
                                "generation": self._ann_generation})
        return ann if len(ann) >= self.ann_min_rows else None

    def _changed_rows(self, changed: list[str]) -> dict[str, Rows]:
        """The current embedded rows of each changed paper (empty: removed, or none yet)."""
        rows = self._load(changed)[1] if changed else {}
        empty = Rows.concat([], self.dim)
        return {paper: rows.get(paper, empty) for paper in changed}

    def _apply(self, ann: UsearchAnn, changed: dict[str, Rows], threads: int) -> None:
        """Fold the changed papers into ``ann``: keys whose chunk row is gone, or that
        belong to a changed paper, come out; the changed papers' embedded rows go in."""
        alive = np.fromiter((r[0] for r in self.db.query("SELECT id FROM search_chunks")),
                            np.int64)
        fresh = Rows.concat(list(changed.values()), self.dim)
        have = ann.keys()
        ann.remove(np.union1d(np.setdiff1d(have, alive), np.intersect1d(have, fresh.rows))
                   .tolist())
        ann.add(fresh.rows, fresh.matrix, threads=threads)

    def _open_saved(self) -> None:
        """Open the saved HNSW file (memory-mapped) when its sidecar names this model."""
        path = self._ann_path()
        saved = read_stamp(path) if path is not None else None
        if path is None or saved is None or saved.get("model") != self.model:
            return
        self._ann = UsearchAnn.open(path, self.dim, saved)
        generation = saved.get("generation", -1)
        self._ann_generation = generation if self._ann and isinstance(generation, int) else -1

    def _ann_path(self) -> Path | None:
        if not isinstance(self.db.path, Path):
            return None
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.model)
        return self.db.path.with_name(f"{self.db.path.name}.{safe}.usearch")

    def invalidate(self) -> None:
        self._papers, self._all, self._complete = None, None, False

    def _refresh(self, wanted: Sequence[str] | None = None) -> dict[str, Rows]:
        """Rows by paper, in step with the change log: of every paper (``wanted`` None), or
        at least of the ``wanted`` ones (a search within papers reads only theirs: a new
        process searching one paper read all 243k vectors first)."""
        if self._papers is not None:
            latest, changed = self.store.changes_since(self._generation)
            if ALL_PAPERS in changed:
                self.invalidate()
            elif changed:
                for paper_id in changed:
                    self._papers.pop(paper_id, None)
                if self._complete:
                    self._papers.update(self._load(sorted(changed))[1])
                self._all, self._generation = None, latest
        if self._papers is None or (wanted is None and not self._complete):
            self._generation = self.store.generation()
            self._all, self._papers = self._load(None) if wanted is None else (None, {})
            self._complete = wanted is None
        if wanted is not None and (missing := [p for p in dict.fromkeys(wanted)
                                               if p not in self._papers]):
            self._papers.update(self._load(missing)[1])
            empty = Rows.concat([], self.dim)
            self._papers.update((p, empty) for p in missing if p not in self._papers)
        return self._papers

    def _load(self, paper_ids: Sequence[str] | None, filters: SearchFilters | None = None,
              limit: int | None = None) -> tuple[Rows, dict[str, Rows]]:
        """All rows of ``paper_ids`` (None = every paper) that pass ``filters`` (None: all),
        and the same split by paper; with ``limit``, at most that many rows, not split."""
        where = "" if paper_ids is None else \
            f" AND c.paper_id IN ({','.join('?' * len(paper_ids))})"
        narrowed, params = filters.sql() if filters is not None else ("1 = 1", [])
        cursor = self.db.execute(
            "SELECT c.id, c.paper_id, c.section_kind, c.kind, c.year, e.vector"
            " FROM search_chunks AS c JOIN search_embeddings AS e"
            " ON e.model = ? AND e.content_hash = c.content_hash AND e.dim = ?"
            f" WHERE {narrowed}{where}"
            + (" ORDER BY c.paper_id, c.id" if limit is None else f" LIMIT {int(limit)}"),
            [self.model, self.dim, *params, *(paper_ids or [])])
        records = cursor.fetchall()
        everything = Rows.decode(records, self.dim)
        if limit is not None or not records:
            return everything, {}
        return everything, split_by_paper(everything, [r[1] for r in records])
