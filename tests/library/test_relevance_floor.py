"""The relevance floor: library-wide, a query that nothing is close to gets no hits."""

from __future__ import annotations

from papermind.db import Database
from papermind.library.embedders import E5Embedder, HashingEmbedder
from papermind.library.search import SearchIndex, SearchOptions
from tests.library.search_fixtures import make_paper


class FlooredHashing(HashingEmbedder):
    relevance_floor = 0.3


def corpus(options: SearchOptions | None = None) -> tuple[SearchIndex, str]:
    index = SearchIndex(Database(":memory:"), FlooredHashing(), options=options or SearchOptions())
    paper = make_paper([("Data", "method", ["Five annotators labelled offensive tweets."]),
                        ("Model", "method", ["A convolutional network classifies tweets."])])
    index.index_paper(paper)
    return index, paper.id


def test_off_topic_gets_no_good_match_library_wide() -> None:
    index, paper_id = corpus()
    assert index.floor == 0.3
    assert index.search("annotators labelled offensive tweets", k=3)  # close: hits
    assert index.search("sourdough bread recipe with rye flour", k=3) == []
    assert index.search("sourdough bread recipe with rye flour", mode="dense", k=3) == []
    # bm25 alone has no similarity scale: no floor; within chosen papers: never refused
    assert index.search("sourdough bread recipe", mode="dense", k=3, paper_ids=[paper_id])


def test_the_floor_is_a_setting_and_zero_turns_it_off() -> None:
    index, _ = corpus(SearchOptions(relevance_floor=0.0))
    assert index.floor == 0.0
    assert index.search("sourdough bread recipe with rye flour", mode="dense", k=3)


def test_e5_has_a_measured_floor() -> None:
    assert 0.7 < E5Embedder.relevance_floor < 0.9
