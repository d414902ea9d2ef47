"""May the report show a recommendation, and does it contradict the scores? Model-free rules.

No recommendation without evidence: when fewer than ``MIN_TRACEABILITY`` of the final
comments and plan items cite lines code found in the paper (the metrics' traceability), the
report gives no recommendation and says why (``withheld_reason``).

A shown recommendation is flagged when EVERY reviewer's final score (1-10) lies beyond one
threshold, the same for every interface (CLI, report, web job page, MCP):

=================  =======================
recommendation     flagged when every score
=================  =======================
accept             <= 4 (``LOW_SCORE``)
minor_revision     <= 4
major_revision     >= 7 (``HIGH_SCORE``)
reject             >= 7
=================  =======================

So "minor revision" with every score 1/10, or "reject" with every score 9/10, is flagged;
a mixed panel (some scores on each side) is never flagged: that is for the reader to weigh.
"""

from __future__ import annotations

from typing import Literal

from papermind.domain.review import Recommendation, ReportFlag, ReviewMetrics, ReviewReport

LOW_SCORE = 4.0
"""Every score at or below this contradicts a favourable recommendation."""
HIGH_SCORE = 7.0
"""Every score at or above this contradicts an unfavourable recommendation."""
THRESHOLDS: dict[str, tuple[Literal["<=", ">="], float]] = {
    "accept": ("<=", LOW_SCORE), "minor_revision": ("<=", LOW_SCORE),
    "major_revision": (">=", HIGH_SCORE), "reject": (">=", HIGH_SCORE)}
MIN_TRACEABILITY = 0.5
"""Below this share of comments citing lines found in the paper, no recommendation."""


def withheld_reason(metrics: ReviewMetrics) -> str:
    """Why a run's recommendation may not be shown ("" when it may)."""
    if metrics.traceability >= MIN_TRACEABILITY:
        return ""
    return (f"no recommendation: only {metrics.comments_traceable} of {metrics.comments} "
            "comments and plan items cite lines found in the paper (traceability "
            f"{metrics.traceability:.2f}, below {MIN_TRACEABILITY:g}); a verdict needs evidence")


def verdict_line(report: ReviewReport) -> str:
    """The recommendation as every interface shows it in one line: 'major revision
    (confidence 0.60)' and its contradicts-the-scores flag, or why there is none."""
    if report.recommendation is None:
        return report.recommendation_withheld or report.scoring_note or "no recommendation"
    line = (f"{report.recommendation.replace('_', ' ')} "
            f"(confidence {report.recommendation_confidence:.2f})")
    flags = [f.message for f in report.flags if f.kind == "recommendation_contradicts_scores"]
    return "; ".join([line, *(f"flag: {m}" for m in flags)])


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
