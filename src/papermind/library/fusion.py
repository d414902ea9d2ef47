"""Fusing the BM25 and the dense ranking of one query into the hybrid ranking.

``score``: a convex combination of each ranking's scores min-max normalised
over its own candidates, ``sum(w * (s - min) / (max - min)) / sum(w)``; a row a ranking did
not return counts 0 there. It keeps how far apart the candidates are: a chunk far ahead in
one ranking stays ahead unless the other ranking clearly disagrees, where reciprocal rank
fusion only sees ranks, so that over a paper's 30 chunks (ranks 1..30 give 1/61..1/90) it
averages the two ranks and a weak side pulls the strong side's hit out of the top five
(bench/search_quality.py: QASPER and PubMedQA, both fusions in one run).

``rrf``: weighted reciprocal rank fusion, ``sum(w / (k + rank))``.

``adaptive`` (the default): per query, from the two rankings themselves. Dense is trusted
less when its best chunk holds none of the query's keywords (it is not among BM25's
candidates, which are every chunk matching any keyword up to ``candidates``): its weight is
multiplied by ``OFF_TOPIC``. Then each row scores its weighted mean of the two normalised
scores (as ``score``) plus ``PEAK`` times its best weighted reciprocal rank on either side,
scaled to [0, 1], so that each side's first hits stay near the top of the hybrid ranking
whatever the other side says (a mean alone pulls one side's hit out of the top five when the other side is
flat or wrong), and a side whose scores are flat does not crowd out the other's. Chosen on the choose split
of evals/search_devset.jsonl (bench/results/search_devset.md): hybrid below its better
side by at most 1 question in 12-15 on every report subset, where ``score`` lost more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

FusionMethod = Literal["adaptive", "score", "rrf"]
FUSIONS: tuple[FusionMethod, ...] = ("adaptive", "score", "rrf")
OFF_TOPIC = 0.25
"""``adaptive``: dense's weight when its best chunk holds no query keyword."""
PEAK = 2.0
"""``adaptive``: weight of a row's best reciprocal rank (1, 1/2, 1/3...) beside the mean."""
Ranking = Sequence[tuple[int, float]]
"""(row, score) pairs, best first; scores higher-is-better."""


def fuse(rankings: Sequence[Ranking], weights: Sequence[float],
         k: int = 60) -> list[tuple[int, float]]:
    """Weighted reciprocal rank fusion: sum of ``w / (k + rank)`` over the rankings."""
    scores: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, (row, _) in enumerate(ranking, start=1):
            scores[row] = scores.get(row, 0.0) + weight / (k + rank)
    return _sorted(scores)


def fuse_scores(rankings: Sequence[Ranking],
                weights: Sequence[float]) -> list[tuple[int, float]]:
    """Convex combination of min-max normalised scores (in [0, 1]; absent rows count 0).

    A ranking whose candidates all score the same gives each of them 1.
    """
    total = sum(w for w, r in zip(weights, rankings, strict=True) if r) or 1.0
    scores: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        if not ranking:
            continue
        values = [score for _, score in ranking]
        low, spread = min(values), max(values) - min(values)
        for row, score in ranking:
            share = (score - low) / spread if spread > 0 else 1.0
            scores[row] = scores.get(row, 0.0) + weight * share / total
    return _sorted(scores)


def fuse_adaptive(lexical: Ranking, dense: Ranking,
                  weights: Sequence[float] = (1.0, 1.0)) -> list[tuple[int, float]]:
    """The ``adaptive`` fusion of a BM25 and a dense ranking (module docstring)."""
    lexical_weight, dense_weight = weights
    if lexical and dense and dense[0][0] not in {row for row, _ in lexical}:
        dense_weight *= OFF_TOPIC  # dense's best shares no word with the query
    total = lexical_weight + dense_weight or 1.0
    top = max(weights) or 1.0
    sides = [(_normalised(lexical), _ranks(lexical), lexical_weight),
             (_normalised(dense), _ranks(dense), dense_weight)]
    scores: dict[int, float] = {}
    for row in {row for _, ranks, _ in sides for row in ranks}:
        mean = sum(w * shares.get(row, 0.0) for shares, _, w in sides) / total
        peak = max(w / ranks[row] if row in ranks else 0.0 for _, ranks, w in sides) / top
        scores[row] = (mean + PEAK * peak) / (1 + PEAK)  # in [0, 1], 1 = first in both
    return _sorted(scores)


def _ranks(ranking: Ranking) -> dict[int, int]:
    return {row: rank for rank, (row, _) in enumerate(ranking, start=1)}


def fuse_with(method: FusionMethod, rankings: Sequence[Ranking], weights: Sequence[float],
              rrf_k: int = 60) -> list[tuple[int, float]]:
    """The hybrid ranking by ``method`` (``adaptive`` takes [BM25, dense] in that order)."""
    if method == "rrf":
        return fuse(rankings, weights, rrf_k)
    if method == "adaptive":
        lexical, dense = rankings
        return fuse_adaptive(lexical, dense, weights)
    return fuse_scores(rankings, weights)


def _normalised(ranking: Ranking) -> dict[int, float]:
    """Min-max normalised scores (all 1 when they are equal)."""
    if not ranking:
        return {}
    values = [score for _, score in ranking]
    low, spread = min(values), max(values) - min(values)
    return {row: (score - low) / spread if spread > 0 else 1.0 for row, score in ranking}


def _sorted(scores: dict[int, float]) -> list[tuple[int, float]]:
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
