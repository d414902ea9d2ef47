"""The relevance floor: library-wide, a query that nothing is close to gets no hits."""

from __future__ import annotations

from papermind.db import Database, SqlDatabase
from papermind.library.embedders import E5Embedder, HashingEmbedder
from papermind.library.fulltext import NO_FILTERS
from papermind.library.search import SearchIndex, SearchOptions, floor_at
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


def test_e5_floor_rises_with_the_library_between_its_measured_points() -> None:
    floors = [floor_at(E5Embedder.relevance_floor, n)
              for n in (10, 1_000, 2_000, 4_000, 8_000, 1_000_000)]
    assert floors[0] == floors[1] == 0.82 and floors[-2] == floors[-1] == 0.85
    assert floors == sorted(floors) and len(set(floors)) == 4
    assert abs(floors[2] - 0.83) < 1e-9  # one of three doublings from 1,000 to 8,000
    assert floor_at(0.5, 10**6) == 0.5  # a number is a fixed floor


class GrowingFloor(HashingEmbedder):
    relevance_floor = ((2, 0.0), (40, 0.3))


def test_the_floor_follows_the_library_size(library_db: SqlDatabase) -> None:
    """The same question is answered in a small library and refused once it has grown
    (both backends count the library's chunks; their HNSW indexes are on, so a refusal is
    confirmed by a harder approximate search)."""
    index = SearchIndex(library_db, GrowingFloor(), options=SearchOptions(ann_min_rows=1))
    index.index_paper(make_paper([("Data", "method", ["Five annotators labelled tweets."])]))
    question = "sourdough bread recipe with rye flour"
    assert index.search(question, k=3)
    for number in range(40):
        index.index_paper(make_paper([("Model", "method", [f"Network {number} classifies."])],
                                     name=f"paper {number}"))
    assert index.vectors.count() >= 40
    assert index.search(question, k=3) == []
    assert index.search("annotators labelled tweets", k=3)  # close: still answered


class MissesTheClosest:
    """A dense index that, like HNSW on a small topical island, misses the closest chunk
    unless asked to search harder."""

    def __init__(self, exact) -> None:
        self.exact = exact
        self.harder_asked = 0
        self.misses = True

    def search(self, query, k, filters=NO_FILTERS, *, harder=False):
        if harder or not self.misses:
            self.harder_asked += harder
            return self.exact.search(query, k, filters)
        return self.exact.search(query, k + 1, filters)[1:]

    def count(self) -> int:
        return self.exact.count()

    def invalidate(self) -> None:
        self.exact.invalidate()


def test_a_near_miss_is_searched_harder_before_no_good_match() -> None:
    index, _ = corpus()
    question = "annotators labelled offensive tweets"
    missing = MissesTheClosest(index.vectors)
    index._vectors = missing  # type: ignore[assignment]
    assert missing.search(index._query_vector(question), 1)[0][1] < 0.3  # the miss alone: refused
    hits = index.search(question, k=3)
    assert missing.harder_asked == 1 and hits and "annotators" in hits[0].text
    assert index.search("sourdough bread recipe with rye flour", k=3) == []  # truly off-topic
    assert missing.harder_asked == 2
    missing.misses = False
    assert index.search(question, k=3)
    assert missing.harder_asked == 2  # a search that finds a close chunk never asks
