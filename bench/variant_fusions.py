"""Fusions and re-scorings that bench/search_variants.py compares with today's min-max:
per-query confidence weights, neighbour smoothing, truncated min-max, CombMNZ,
distribution-based fusion and a min-max/RRF blend."""

from __future__ import annotations

from collections.abc import Sequence

from papermind.library.fusion import fuse, fuse_scores

Ranking = list[tuple[int, float]]


def minmax(ranking: Ranking) -> dict[int, float]:
    if not ranking:
        return {}
    values = [s for _, s in ranking]
    low, spread = min(values), max(values) - min(values)
    return {r: (s - low) / spread if spread > 0 else 1.0 for r, s in ranking}


def confidence(ranking: Ranking, how: str) -> float:
    """How sure one ranker is of its top hit, from its own scores."""
    values = [s for _, s in ranking]
    if len(values) < 3:
        return 1.0
    spread = values[0] - values[-1]
    if spread <= 0:
        return 0.0
    if how == "gap":  # top-1 minus top-2, in units of the candidates' range
        return (values[0] - values[1]) / spread
    if how == "gap5":  # top-1 minus the 5th
        return (values[0] - values[min(4, len(values) - 1)]) / spread
    mean = sum(values) / len(values)  # "z": the top score's z-score among the candidates
    std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return (values[0] - mean) / std if std > 0 else 0.0


def adaptive(rankings: Sequence[Ranking], how: str, floor: float = 0.0) -> Ranking:
    weights = [confidence(r, how) + floor for r in rankings]
    if sum(weights) <= 0:
        weights = [1.0] * len(rankings)
    return fuse_scores(rankings, weights)


def neighbours(ranking: Ranking, share: float, paper_of: dict[int, str]) -> Ranking:
    """Each chunk's min-max score plus ``share`` of its better neighbour's (same paper)."""
    scores = minmax(ranking)
    out = {}
    for row in scores:
        near = [scores.get(row + d, 0.0) for d in (-1, 1)
                if paper_of.get(row + d) == paper_of.get(row)]
        out[row] = scores[row] + share * max(near, default=0.0)
    return sorted(out.items(), key=lambda x: (-x[1], x[0]))


def truncated(rankings: Sequence[Ranking], depth: int) -> Ranking:
    """Min-max over each side's top ``depth`` only (the rest count 0)."""
    return fuse_scores([r[:depth] for r in rankings], [1] * len(rankings))


def mnz(rankings: Sequence[Ranking], depth: int) -> Ranking:
    """Min-max sum times how many sides have the row in their top ``depth`` (CombMNZ)."""
    tops = [{row for row, _ in r[:depth]} for r in rankings]
    fused = fuse_scores(rankings, [1] * len(rankings))
    out = [(row, score * max(1, sum(row in t for t in tops))) for row, score in fused]
    return sorted(out, key=lambda x: (-x[1], x[0]))


def dbsf(rankings: Sequence[Ranking]) -> Ranking:
    """Distribution-based score fusion: each side scaled by mean +- 3 sd of its scores."""
    out: dict[int, float] = {}
    for ranking in rankings:
        values = [s for _, s in ranking]
        if not values:
            continue
        mean = sum(values) / len(values)
        sd = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5 or 1.0
        low, high = mean - 3 * sd, mean + 3 * sd
        for row, score in ranking:
            out[row] = out.get(row, 0.0) + (min(max(score, low), high) - low) / (high - low)
    return sorted(out.items(), key=lambda x: (-x[1], x[0]))


def blend(b: Ranking, d: Ranking) -> Ranking:
    """Mean of the min-max fusion and RRF (each scaled to max 1)."""
    one, two = minmax(fuse_scores([b, d], [1, 1])), minmax(fuse([b, d], [1, 1], 60))
    out = {r: one.get(r, 0.0) + two.get(r, 0.0) for r in set(one) | set(two)}
    return sorted(out.items(), key=lambda x: (-x[1], x[0]))
