"""Fusing the BM25 and the dense ranking of one query into the hybrid ranking.

``score`` (the default): a convex combination of each ranking's scores min-max normalised
over its own candidates, ``sum(w * (s - min) / (max - min)) / sum(w)``; a row a ranking did
not return counts 0 there. It keeps how far apart the candidates are: a chunk far ahead in
one ranking stays ahead unless the other ranking clearly disagrees, where reciprocal rank
fusion only sees ranks, so that over a paper's 30 chunks (ranks 1..30 give 1/61..1/90) it
averages the two ranks and a weak side pulls the strong side's hit out of the top five
(bench/search_quality.py: QASPER and PubMedQA, both fusions in one run).

``rrf``: weighted reciprocal rank fusion, ``sum(w / (k + rank))`` (the earlier default).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

FusionMethod = Literal["score", "rrf"]
FUSIONS: tuple[FusionMethod, ...] = ("score", "rrf")
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


def fuse_with(method: FusionMethod, rankings: Sequence[Ranking], weights: Sequence[float],
              rrf_k: int = 60) -> list[tuple[int, float]]:
    """The hybrid ranking by ``method``."""
    if method == "rrf":
        return fuse(rankings, weights, rrf_k)
    return fuse_scores(rankings, weights)


def _sorted(scores: dict[int, float]) -> list[tuple[int, float]]:
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
