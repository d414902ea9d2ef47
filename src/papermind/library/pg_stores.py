"""The PostgreSQL backend's search stores: chunk rows and BM25 in tables (``pg_search``),
embeddings and HNSW in pgvector (``pg_vectors``). The storage registry gives this to the
handles it opens on PostgreSQL (``services.storage.postgres``)."""

from __future__ import annotations

from papermind.db import SqlDatabase
from papermind.library.embedders import Embedder
from papermind.library.pg_search import PgChunkStore, PgFullText
from papermind.library.pg_vectors import PgEmbeddingCache, PgVectorIndex
from papermind.library.ports import DenseIndex, EmbeddingStore, SearchBackend


def pg_search(db: SqlDatabase, *, lexical_min_rows: int | None = None) -> SearchBackend:
    """The search stores on ``db`` (``lexical_min_rows``: SQLite's tantivy threshold, no
    use here: BM25 is always the tables')."""
    store = PgChunkStore(db)

    def embeddings(embedder: Embedder) -> EmbeddingStore:
        return PgEmbeddingCache(db, embedder)

    def vectors(model: str, dim: int, *, ann_min_rows: int | None) -> DenseIndex:
        return PgVectorIndex(db, model, dim, ann_min_rows=ann_min_rows)

    return SearchBackend(db, store, PgFullText(db, store), embeddings=embeddings, vectors=vectors)
