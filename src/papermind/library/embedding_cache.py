"""Embeddings by (model, content hash), stored as float16 blobs and computed once:
re-indexing a paper, or adding one to a large library, embeds only texts never seen before."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from papermind.db import SqlDatabase
from papermind.library.embedders import Embedder

EmbedProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each embedded batch."""


class EmbeddingCache:
    """Embeddings by (model, content hash); computes only what is missing, in batches."""

    def __init__(self, db: SqlDatabase, embedder: Embedder, batch_size: int = 16) -> None:
        self.db = db
        self.embedder = embedder
        self.batch_size = batch_size

    def missing(self, hashes: Sequence[str]) -> set[str]:
        wanted = set(hashes)
        have: set[str] = set()
        listed = list(wanted)
        for start in range(0, len(listed), 500):
            part = listed[start:start + 500]
            rows = self.db.query(
                f"SELECT content_hash FROM search_embeddings WHERE model = ? AND content_hash"
                f" IN ({','.join('?' * len(part))})", [self.embedder.name, *part])
            have.update(r[0] for r in rows)
        return wanted - have

    def ensure(self, items: Sequence[tuple[str, str]],
               progress: EmbedProgress | None = None) -> int:
        """Embed the (hash, text) items not cached yet; returns how many were embedded."""
        todo = dict.fromkeys(self.missing([h for h, _ in items]))
        pending = [(h, t) for h, t in dict(items).items() if h in todo]
        for start in range(0, len(pending), self.batch_size):
            batch = pending[start:start + self.batch_size]
            vectors = self.embedder.embed_documents([t for _, t in batch])
            self.store([h for h, _ in batch], vectors)
            if progress is not None:
                progress(min(start + self.batch_size, len(pending)), len(pending))
        return len(pending)

    def store(self, hashes: Sequence[str], vectors: np.ndarray) -> None:
        with self.db.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO search_embeddings(model, content_hash, dim, vector)"
                " VALUES (?, ?, ?, ?)",
                [(self.embedder.name, h, int(v.shape[0]), v.astype(np.float16).tobytes())
                 for h, v in zip(hashes, vectors, strict=True)])
