"""Excluding papers (older versions of a work) keeps a search library-wide: every index leaves
the excluded papers out, the approximate dense index stays in use, and the relevance floor
still refuses what nothing is close to."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.db import Database, SqlDatabase
from papermind.library.embedders import HashingEmbedder
from papermind.library.fulltext import _RANGE_QUERY_MAX_PAPERS
from papermind.library.search import SearchIndex, SearchOptions
from papermind.library.vectors import VectorIndex
from tests.library.search_fixtures import make_paper


class FlooredHashing(HashingEmbedder):
    relevance_floor = 0.3


def versions(count: int) -> list:
    """``count`` papers that all say the same things (versions of one work), with one
    sentence of their own each."""
    return [make_paper([("Data", "method", ["Five annotators labelled offensive tweets.",
                                            f"Version {n} adds lasers to the tweets."])],
                       name=f"version {n}") for n in range(count)]


def papers_found(index: SearchIndex, query: str, mode: str, exclude: list[str]) -> set[str]:
    return {h.paper_id for h in index.search(query, mode=mode, k=50,  # type: ignore[arg-type]
                                             exclude_papers=exclude)}


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_excluded_papers_never_come_back_on_either_backend(library_db: SqlDatabase,
                                                           mode: str) -> None:
    """ann_min_rows=1: the approximate dense index answers (both backends)."""
    index = SearchIndex(library_db, FlooredHashing(), options=SearchOptions(ann_min_rows=1))
    papers = versions(4)
    for paper in papers:
        index.index_paper(paper)
    every = {p.id for p in papers}
    assert papers_found(index, "annotators labelled tweets", mode, []) == every
    hidden = [papers[0].id, papers[2].id]
    assert papers_found(index, "annotators labelled tweets", mode, hidden) == every - set(hidden)
    assert papers_found(index, "annotators labelled tweets", mode, list(every)) == set()


@pytest.mark.parametrize("lexical_min_rows", [None, 0], ids=["fts5", "tantivy"])
def test_bm25_excludes_by_row_range_or_join_alike(tmp_path: Path,
                                                  lexical_min_rows: int | None) -> None:
    """Few excluded papers: FTS5 skips their row ranges; many: it joins the chunk rows;
    tantivy: a must-not clause. Same answers."""
    if lexical_min_rows == 0:
        pytest.importorskip("tantivy")
    index = SearchIndex(Database(tmp_path / "lib.sqlite3"), None,
                        options=SearchOptions(lexical_min_rows=lexical_min_rows))
    papers = versions(_RANGE_QUERY_MAX_PAPERS + 4)
    for paper in papers:
        index.index_paper(paper, embed=False)
    every = {p.id for p in papers}
    for hidden in ([papers[1].id], [p.id for p in papers[:_RANGE_QUERY_MAX_PAPERS + 2]]):
        found = papers_found(index, "lasers tweets", "bm25", hidden)
        assert found == every - set(hidden), len(hidden)
        also = {h.paper_id for h in index.search("lasers", mode="bm25", k=50,
                                                 exclude_papers=hidden, section_kinds=["method"])}
        assert also == every - set(hidden)


def test_exclusion_keeps_the_floor_and_the_approximate_index(tmp_path: Path) -> None:
    """Before, hiding older versions listed every other paper as a filter: exact search over
    per-paper rows, and no relevance floor (a filtered search is never refused)."""
    index = SearchIndex(Database(tmp_path / "lib.sqlite3"), FlooredHashing(),
                        options=SearchOptions(ann_min_rows=1))
    papers = versions(3)
    for paper in papers:
        index.index_paper(paper)
    hidden = [papers[0].id]
    assert index.search("sourdough bread recipe with rye flour", k=3,
                        exclude_papers=hidden) == []
    assert index.search("annotators labelled tweets", k=3, exclude_papers=hidden)
    vectors = index.vectors
    assert isinstance(vectors, VectorIndex) and vectors._ann is not None  # HNSW in use


def test_a_vector_shared_by_two_versions_reaches_both_in_a_running_index(
        library_db: SqlDatabase) -> None:
    """Pending texts are embedded once per distinct text; the change is logged for every
    paper holding it, so an index already loaded (the API server's) reloads both papers.
    Before, only the first paper was logged and dense search missed the second one until
    a restart."""
    index = SearchIndex(library_db, HashingEmbedder())
    same = [("Data", "method", ["Five annotators labelled offensive tweets."])]
    first, second = make_paper(same, name="v1"), make_paper(same, name="v2")
    index.index_paper(first, embed=False)
    index.index_paper(second, embed=False)
    assert index.search("annotators labelled tweets", mode="dense", k=5) == []  # loaded, empty
    assert index.embed_pending() == 1  # one distinct text
    found = {h.paper_id for h in index.search("annotators labelled tweets", mode="dense", k=5)}
    assert found == {first.id, second.id}
