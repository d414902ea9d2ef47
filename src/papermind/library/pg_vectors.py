"""Dense side of search on PostgreSQL: embeddings in pgvector, HNSW for the library-wide case.

Embeddings are cached by (model, content hash) as on SQLite, in one ``vector`` column; each
(model, dimension) gets a partial HNSW index on ``vector::vector(dim)`` (cosine), made the
first time that model searches. Searches run in the database, so writes by other processes
are seen at once (no change log to follow). Within chosen papers, and for libraries under
``ann_min_rows`` chunks, search is exact; library-wide it asks HNSW for extra candidates when
filters apply and falls back to exact when too few pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from papermind.db import SqlDatabase
from papermind.library.ann import HARDER, expansion_for
from papermind.library.embedding_cache import EmbeddingCache
from papermind.library.fulltext import NO_FILTERS, SearchFilters

HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
"""pgvector HNSW settings; recall and latency in bench/pg_scale.py and bench/pg_ann_real.py."""
EF_SEARCH_MAX = 1000
"""pgvector refuses a larger hnsw.ef_search."""
_LOCK = 0x766563  # advisory lock key: one process creates an HNSW index


class PgEmbeddingCache(EmbeddingCache):
    """The embedding cache in ``search_embeddings.vector`` (float32)."""

    def missing(self, hashes: Sequence[str]) -> set[str]:
        wanted = set(hashes)
        rows = self.db.query("SELECT content_hash FROM search_embeddings WHERE model = ?"
                             " AND content_hash = ANY(?)", (self.embedder.name, list(wanted)))
        return wanted - {r[0] for r in rows}

    def store(self, hashes: Sequence[str], vectors: np.ndarray) -> None:
        with self.db.transaction() as conn:
            conn.executemany(
                "INSERT INTO search_embeddings(model, content_hash, dim, vector)"
                " VALUES (?, ?, ?, ?) ON CONFLICT(model, content_hash) DO UPDATE"
                " SET dim = excluded.dim, vector = excluded.vector",
                [(self.embedder.name, h, int(v.shape[0]), np.asarray(v, dtype=np.float32))
                 for h, v in zip(hashes, vectors, strict=True)])


class PgVectorIndex:
    """Cosine search over the indexed chunks' embeddings, in the database."""

    def __init__(self, db: SqlDatabase, model: str, dim: int, *,
                 ann_min_rows: int | None = None) -> None:
        self.db = db
        self.model = model
        self.dim = int(dim)
        self.ann_min_rows = ann_min_rows
        self._model_sql = "'" + model.replace("'", "''") + "'"
        self._cast = f"vector({self.dim})"
        if ann_min_rows is not None:
            self._ensure_hnsw()

    def _ensure_hnsw(self) -> None:
        name = "search_hnsw_" + re.sub(r"[^a-z0-9]+", "_", f"{self.model}_{self.dim}".lower())
        with self.db.transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(?)", (_LOCK,))
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS {name[:63]} ON search_embeddings USING hnsw"
                f" ((vector::{self._cast}) vector_cosine_ops)"
                f" WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION})"
                f" WHERE model = {self._model_sql} AND dim = {self.dim}")

    def invalidate(self) -> None:
        """Nothing is cached in the process."""

    def catch_up(self, threads: int = 1) -> None:
        """Nothing to do: PostgreSQL keeps its HNSW index in the same writes."""

    def search(self, query: np.ndarray, k: int, filters: SearchFilters = NO_FILTERS, *,
               harder: bool = False) -> list[tuple[int, float]]:
        """Top ``k`` (row, cosine) among the chunks that pass ``filters`` (``harder``: the
        HNSW index looks ``HARDER`` times wider)."""
        if k <= 0:
            return []
        vector = np.asarray(query, dtype=np.float32)
        if not filters.paper_ids and self.ann_min_rows is not None:
            size = self.count()
            if size >= self.ann_min_rows:
                ef = expansion_for(size) * (HARDER if harder else 1)
                found = self._approximate(vector, k, filters, ef)
                if found is not None:
                    return found
        return self.exact(vector, k, filters)

    def count(self) -> int:
        """The library's chunks (from the per-paper counts; unembedded ones included)."""
        rows = self.db.query("SELECT COALESCE(SUM(chunks), 0) FROM search_stats")
        return int(rows[0][0])

    def exact(self, vector: np.ndarray, k: int,
              filters: SearchFilters = NO_FILTERS) -> list[tuple[int, float]]:
        where, params = filters.sql()
        rows = self.db.query(
            "SELECT c.id, 1 - (e.vector <=> ?) AS score FROM search_chunks AS c"
            " JOIN search_embeddings AS e ON e.model = ? AND e.content_hash = c.content_hash"
            f" AND e.dim = ? WHERE {where} ORDER BY e.vector <=> ?, c.id LIMIT ?",
            [vector, self.model, self.dim, *params, vector, k])
        return [(int(r[0]), float(r[1])) for r in rows]

    def _approximate(self, vector: np.ndarray, k: int, filters: SearchFilters,
                     ef: int) -> list[tuple[int, float]] | None:
        """HNSW candidates joined to their chunks (searched at ``ef``, the same size rule as
        the SQLite backend's usearch index: on 136k real e5 vectors pgvector's recall@10 was
        0.89 at ef_search 100, 0.95 at 200, 0.985 at 512, bench/results/pg_ann_real.md); None
        when fewer than ``k`` pass."""
        where, params = filters.sql()
        want = max(4 * k, 64)
        with self.db.transaction() as conn:
            conn.execute(f"SET LOCAL hnsw.ef_search = {min(EF_SEARCH_MAX, max(want, ef))}")
            rows = conn.execute(
                "SELECT c.id, 1 - e.distance AS score FROM (SELECT content_hash,"
                f" vector::{self._cast} <=> ?::{self._cast} AS distance FROM search_embeddings"
                f" WHERE model = {self._model_sql} AND dim = {self.dim}"
                " ORDER BY distance LIMIT ?) AS e"
                f" JOIN search_chunks AS c ON c.content_hash = e.content_hash WHERE {where}"
                " ORDER BY e.distance, c.id LIMIT ?", [vector, want, *params, k]).fetchall()
        found = [(int(r[0]), float(r[1])) for r in rows]
        return found if len(found) >= k else None
