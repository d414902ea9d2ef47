"""The storage port: what services and search need from a library backend.

One ``SqlDatabase`` (``papermind.db``: SQLite, the embedded default; ``papermind.db.postgres``:
PostgreSQL + pgvector, for scale) is opened by the storage backend ``storage.url`` names
(``services.storage``); every store below is built on it, so one transaction spans them all
("nothing half-stored"). The search stores are the backend's (``SearchStores``: given to
the handle it opens), else the library's own embedded ones; nothing here asks which engine.

=====================  =================================  ==================================
port                   SQLite                             PostgreSQL
=====================  =================================  ==================================
``PaperStore``         ``papers.PaperRepository`` (the same class; files content-addressed
                       on disk either way), ``catalog.Catalog``, ``labels.LabelStore``,
                       ``import_log.ImportLog``: portable SQL, tables in each
                       backend's ``db.<backend>.schema``
``SearchStores``       ``ports.embedded_search``          ``pg_stores.pg_search``
``ChunkRows``          ``chunk_store.ChunkStore``         ``pg_search.PgChunkStore``
``LexicalIndex``       ``tantivy_index.TantivyFullText``  ``pg_search.PgFullText`` (tsvector)
                       (a tantivy file next to the
                       library; ``fulltext.FullTextIndex``
                       (FTS5) for small libraries)
``EmbeddingStore``     ``vectors.EmbeddingCache``         ``pg_vectors.PgEmbeddingCache``
``DenseIndex``         ``vectors.VectorIndex`` (numpy +   ``pg_vectors.PgVectorIndex``
                       usearch HNSW file)                 (pgvector HNSW)
``llm.cache.CacheStore``  ``llm.cache.ResponseCache`` (portable SQL)
=====================  =================================  ==================================

Jobs, job events, the job queue, workflow checkpoints and shared LLM limits are built by
the storage backend too (``services.storage``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from papermind.db import SqlDatabase
from papermind.domain import Chunk
from papermind.library.chunk_store import ChunkStore, StoredChunk
from papermind.library.embedders import Embedder
from papermind.library.embedding_cache import EmbeddingCache, EmbedProgress
from papermind.library.fulltext import FullTextIndex, SearchFilters
from papermind.library.papers import PaperStore
from papermind.library.segmenter import Segmenter
from papermind.library.tantivy_index import LEXICAL_MIN_ROWS, TantivyFullText
from papermind.library.vectors import VectorIndex

__all__ = ["ChunkRows", "DenseIndex", "EmbeddingStore", "LexicalIndex", "PaperStore",
           "SearchBackend", "SearchStores", "embedded_search", "search_backend"]


class ChunkRows(Protocol):
    """Chunk rows of the indexed papers (row ids are the search's keys)."""

    def replace_paper(self, paper_id: str, chunks: Sequence[Chunk],
                      bodies: Sequence[str]) -> None: ...

    def remove_paper(self, paper_id: str) -> None: ...

    def clear(self) -> None: ...

    def unembedded(self, model: str,
                   paper_ids: Sequence[str] | None = None) -> list[tuple[str, str, str]]: ...

    def touch(self, content_hashes: Sequence[str]) -> None: ...

    def fetch(self, rows: Iterable[int]) -> dict[int, StoredChunk]: ...

    def section_kinds(self, rows: Sequence[int]) -> dict[int, str]: ...

    def count(self) -> int: ...


class LexicalIndex(Protocol):
    """Ranked BM25 over the chunk rows; scores positive, higher is better. ``segmenter``
    splits CJK text the way the index stored it (``library.segmenter``)."""

    segmenter: Segmenter

    def search(self, terms: Sequence[str], k: int,
               filters: SearchFilters = ...) -> list[tuple[int, float]]: ...

    def catch_up(self) -> None:
        """Bring a derived index in step with the chunk rows now (after a bulk add, so the
        next search does not pay for it); nothing to do for one kept in the same writes."""
        ...


class EmbeddingStore(Protocol):
    """Embeddings by (model, content hash), computed once."""

    embedder: Embedder
    batch_size: int

    def ensure(self, items: Sequence[tuple[str, str]],
               progress: EmbedProgress | None = None) -> int: ...

    def store(self, hashes: Sequence[str], vectors: np.ndarray) -> None: ...


class DenseIndex(Protocol):
    """Top-k cosine over the embedded chunk rows."""

    def search(self, query: np.ndarray, k: int, filters: SearchFilters = ..., *,
               harder: bool = False) -> list[tuple[int, float]]:
        """Top ``k`` (row, cosine); ``harder``: an approximate index looks wider (asked
        before a search says "no good match", so that a near miss does not refuse)."""
        ...

    def count(self) -> int:
        """How many chunk vectors a library-wide search looks through."""
        ...

    def catch_up(self, threads: int = 1) -> None:
        """Bring an approximate index in step with the stored vectors now (``threads``
        build it); nothing to do for one the database keeps itself."""
        ...

    def invalidate(self) -> None: ...


class EmbeddingStores(Protocol):
    def __call__(self, embedder: Embedder) -> EmbeddingStore: ...


class DenseIndexes(Protocol):
    def __call__(self, model: str, dim: int, *, ann_min_rows: int | None) -> DenseIndex: ...


@dataclass(frozen=True)
class SearchBackend:
    """The search stores of one database: its chunk rows and BM25, and how it keeps
    embeddings and searches them for a model."""

    db: SqlDatabase
    chunks: ChunkRows
    fulltext: LexicalIndex
    embeddings: EmbeddingStores
    vectors: DenseIndexes


class SearchStores(Protocol):
    """A backend's search stores on ``db`` (tables migrated on first use)."""

    def __call__(self, db: SqlDatabase, *,
                 lexical_min_rows: int | None = LEXICAL_MIN_ROWS) -> SearchBackend: ...


def embedded_search(db: SqlDatabase, *,
                    lexical_min_rows: int | None = LEXICAL_MIN_ROWS) -> SearchBackend:
    """The library's own stores, on SQLite: BM25 uses the tantivy index from
    ``lexical_min_rows`` chunks (None: FTS5 only), dense search numpy + usearch files."""
    store = ChunkStore(db)
    fts = FullTextIndex(db, store)

    def vectors(model: str, dim: int, *, ann_min_rows: int | None) -> DenseIndex:
        return VectorIndex(db, store, model, dim, ann_min_rows=ann_min_rows)

    return SearchBackend(db, store, TantivyFullText(db, store, fts, min_rows=lexical_min_rows),
                         embeddings=lambda embedder: EmbeddingCache(db, embedder),
                         vectors=vectors)


def search_backend(db: SqlDatabase, *,
                   lexical_min_rows: int | None = LEXICAL_MIN_ROWS) -> SearchBackend:
    """The search stores of ``db``'s backend: the ones the backend gave its handle
    (``SqlDatabase.search_stores``), else the library's own (``embedded_search``)."""
    stores: SearchStores = db.search_stores or embedded_search
    return stores(db, lexical_min_rows=lexical_min_rows)
