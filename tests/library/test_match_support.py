"""One shared word is not a match: a library-wide hybrid search whose top hits share only
one of the query's content words, with a dense side that does not stand out over the
relevance floor, says "no good match" (library/match_support.py)."""

from __future__ import annotations

import numpy as np

from papermind.db import Database
from papermind.library.embedders import HashingEmbedder
from papermind.library.match_support import single_shared_word, terms
from papermind.library.search import SearchIndex, SearchOptions
from tests.library.search_fixtures import make_paper


class Flat(HashingEmbedder):
    """Every text the same vector: the dense side ties at cosine 1.0, just over a floor of
    0.99, and supports nothing."""

    relevance_floor = 0.99

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, dtype=np.float32)
        vector[0] = 1.0
        return vector


def recipes() -> tuple[SearchIndex, str]:
    index = SearchIndex(Database(":memory:"), Flat())
    paper = make_paper([("Data", "method", ["We collected 180,000 recipes and user reviews."]),
                        ("Model", "method", ["A personalized model generates recipes for users."])])
    index.index_paper(paper)
    return index, paper.id


def test_words_meet_on_their_stems_and_rating_words_do_not_count() -> None:
    assert terms("the best recipes for users") == {"recip", "users"}
    assert single_shared_word("recipe for chocolate chip cookies", ["collected recipes"])
    assert not single_shared_word("personalized recipes for users", ["personalized recipes"])
    assert not single_shared_word("recipes", ["no such word"])  # a keyword search: exempt
    assert not single_shared_word("巧克力饼干的食谱", ["食谱"])  # CJK: exempt


def test_an_off_topic_question_sharing_one_word_gets_no_good_match() -> None:
    index, paper_id = recipes()
    assert index.search("recipe for chocolate chip cookies with brown butter", k=3) == []
    # two shared words: a match; within a chosen paper the rule never refuses
    assert index.search("how do users rate personalized recipes", k=3)
    assert index.search("recipe for chocolate chip cookies", paper_ids=[paper_id], k=3)
    assert index.search("recipe for chocolate chip cookies", mode="bm25", k=3)


def test_a_dense_side_well_over_the_floor_keeps_the_hits() -> None:
    index, _ = recipes()
    index.options = SearchOptions(relevance_floor=0.9)  # 1.0 >= 0.9 + margin
    assert index.search("recipe for chocolate chip cookies with brown butter", k=3)
