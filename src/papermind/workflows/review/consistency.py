"""Does the recommendation contradict the scores? A model-free rule with fixed thresholds.

A recommendation is flagged when EVERY reviewer's final score (1-10) lies beyond its
threshold, i.e. when no score at all could justify it:

=================  =======================
recommendation     flagged when every score
=================  =======================
accept             <= 4
minor_revision     <= 3
major_revision     >= 9
reject             >= 7
=================  =======================

So "minor revision" with every score 1/10, or "reject" with every score 9/10, is flagged;
a mixed panel (some scores on each side) is never flagged: that is for the reader to weigh.
"""

from __future__ import annotations

from typing import Literal

from papermind.domain.review import Recommendation, ReportFlag

THRESHOLDS: dict[str, tuple[Literal["<=", ">="], float]] = {
    "accept": ("<=", 4.0), "minor_revision": ("<=", 3.0),
    "major_revision": (">=", 9.0), "reject": (">=", 7.0)}


def recommendation_flag(recommendation: Recommendation | None,
                        scores: dict[str, float]) -> ReportFlag | None:
    """A flag when ``recommendation`` contradicts every one of ``scores``, else None."""
    if recommendation is None or not scores or recommendation not in THRESHOLDS:
        return None
    side, limit = THRESHOLDS[recommendation]
    values = list(scores.values())
    beyond = all(v <= limit for v in values) if side == "<=" else all(v >= limit for v in values)
    if not beyond:
        return None
    listed = ", ".join(f"{role} {score:g}" for role, score in scores.items())
    return ReportFlag(kind="recommendation_contradicts_scores", message=(
        f"recommendation '{recommendation.replace('_', ' ')}' contradicts the scores: every "
        f"score is {side} {limit:g}/10 ({listed})"))
