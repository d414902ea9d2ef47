"""Hybrid fusion: per-query adaptive (default), min-max normalised scores and reciprocal rank
fusion."""

from __future__ import annotations

import random

import pytest

from papermind.config import load_settings
from papermind.db import Database
from papermind.library.embedders import HashingEmbedder
from papermind.library.fusion import OFF_TOPIC, PEAK, fuse, fuse_adaptive, fuse_scores, fuse_with
from papermind.library.search import SearchIndex, SearchOptions
from papermind.services.search import build_search_index
from tests.library.search_fixtures import make_paper

# a paper's worth of candidates: dense is sure of row 1 (cosine well above the rest);
# BM25 scores its matches almost alike and has row 1 twelfth
DENSE = [(1, 0.91), *((row, 0.80 - 0.001 * row) for row in range(2, 30))]
BM25 = [(row, 5.0 - 0.01 * n) for n, row in enumerate([*range(2, 13), 1, 13, 14])]


def top(ranking: list[tuple[int, float]], n: int = 5) -> list[int]:
    return [row for row, _ in ranking[:n]]


def test_a_clear_lead_in_one_ranking_survives_a_flat_other_ranking() -> None:
    assert 1 in top(fuse_scores([BM25, DENSE], [1.0, 1.0]))
    assert 1 not in top(fuse([BM25, DENSE], [1.0, 1.0]))  # ranks alone: averaged out


def test_scores_are_a_convex_combination_in_unit_range() -> None:
    fused = dict(fuse_scores([[(1, 10.0), (2, 4.0), (3, 1.0)], [(2, 0.9), (4, 0.5)]],
                             [1.0, 3.0]))
    assert fused[1] == pytest.approx(0.25)  # top of BM25 (1.0 * 1), absent from dense
    assert fused[2] == pytest.approx((1.0 * 3 / 9 + 3.0 * 1.0) / 4)
    assert fused[3] == pytest.approx(0.0) and fused[4] == pytest.approx(0.0)
    assert all(0.0 <= s <= 1.0 for s in fused.values())


def test_one_empty_ranking_leaves_the_other_order() -> None:
    assert top(fuse_scores([[], DENSE], [1.0, 1.0]), 30) == top(DENSE, 30)
    assert fuse_scores([[], []], [1.0, 1.0]) == []
    assert fuse_scores([[(7, 2.0), (8, 2.0)]], [1.0]) == [(7, 1.0), (8, 1.0)]  # flat: all 1


def test_zero_weight_ignores_a_ranking() -> None:
    assert top(fuse_scores([BM25, DENSE], [0.0, 1.0]), 29) == top(DENSE, 29)


def test_a_row_ahead_in_both_rankings_is_never_fused_behind() -> None:
    rng = random.Random(7)
    for _ in range(50):
        rows = rng.sample(range(100), 30)
        a = sorted(((r, rng.random() * 12) for r in rows[:20]), key=lambda x: -x[1])
        b = sorted(((r, 0.7 + rng.random() * 0.2) for r in rows[10:]), key=lambda x: -x[1])
        fused = dict(fuse_scores([a, b], [1.0, rng.choice([0.5, 1.0, 2.0])]))
        norm = [_normalised(x) for x in (a, b)]
        for x in rows:
            for y in rows:
                if all(n.get(x, 0.0) >= n.get(y, 0.0) for n in norm):
                    assert fused[x] >= fused[y] - 1e-12


def _normalised(ranking: list[tuple[int, float]]) -> dict[int, float]:
    low, high = min(s for _, s in ranking), max(s for _, s in ranking)
    return {r: (s - low) / (high - low) for r, s in ranking}


def test_fuse_with_selects_the_method() -> None:
    assert fuse_with("rrf", [BM25, DENSE], [1.0, 1.0], 60) == fuse([BM25, DENSE], [1.0, 1.0], 60)
    assert fuse_with("score", [BM25, DENSE], [1.0, 1.0]) == fuse_scores([BM25, DENSE], [1, 1])


def test_the_setting_reaches_the_index_and_hybrid_uses_it(tmp_path) -> None:
    settings = load_settings(search={"fusion": "rrf", "embedder": "hashing"})
    assert build_search_index(settings, Database(tmp_path / "a.sqlite3")).options.fusion == "rrf"
    assert SearchOptions().fusion == "adaptive"
    assert load_settings().search.fusion == "adaptive"
    paper = make_paper([("Data", "method", ["We collected 14,100 tweets by five annotators.",
                                            "The models are trained on the tweets."])])
    scores = {}
    for fusion in ("adaptive", "score", "rrf"):
        index = SearchIndex(Database(tmp_path / f"{fusion}.sqlite3"), HashingEmbedder(),
                            options=SearchOptions(fusion=fusion))
        index.index_paper(paper)
        scores[fusion] = index.search("five annotators tweets", mode="hybrid", k=3)[0].score
    assert scores["score"] == pytest.approx(1.0)  # top of both rankings
    assert scores["rrf"] == pytest.approx(2 / 61)
    assert scores["adaptive"] == pytest.approx(1.0)



def test_adaptive_keeps_each_sides_clear_best_in_the_top_five() -> None:
    # dense is sure of row 1, BM25 of row 2; each is near the bottom of the other side
    dense = [(1, 0.95), *((row, 0.80 - 0.001 * row) for row in range(3, 30)), (2, 0.70)]
    bm25 = [(2, 9.0), *((row, 3.0 - 0.01 * row) for row in range(3, 30)), (1, 0.5)]
    fused = fuse_adaptive(bm25, dense)
    assert {1, 2} <= set(top(fused))
    assert all(0.0 <= score <= 1.0 for _, score in fused)
    assert fuse_with("adaptive", [bm25, dense], [1.0, 1.0]) == fuse_adaptive(bm25, dense)


def test_adaptive_trusts_dense_less_when_its_best_holds_no_query_word() -> None:
    bm25 = [(2, 5.0), (3, 4.0), (4, 1.0)]
    on_topic = dict(fuse_adaptive(bm25, [(3, 0.9), (2, 0.8), (9, 0.7)]))
    off_topic = dict(fuse_adaptive(bm25, [(9, 0.9), (2, 0.8), (3, 0.7)]))  # 9: no keyword
    assert on_topic[3] > on_topic[2]  # dense's best is a BM25 candidate: full weight
    assert off_topic[2] > off_topic[9]
    assert off_topic[9] == pytest.approx((OFF_TOPIC / (1 + OFF_TOPIC) + PEAK * OFF_TOPIC)
                                         / (1 + PEAK))


def test_adaptive_with_one_side_empty_is_that_side() -> None:
    assert top(fuse_adaptive([], DENSE), 29) == top(DENSE, 29)
    assert top(fuse_adaptive(BM25, []), 14) == top(BM25, 14)
    assert fuse_adaptive([], []) == []
