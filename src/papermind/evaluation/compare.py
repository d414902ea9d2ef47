"""Two runs side by side: per metric the means over their shared items, the difference,
its paired permutation p-value, and a flag for a drop of more than a few points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from papermind.evaluation.metrics import paired_permutation

DROP_POINTS = 5.0
SIGNIFICANT = 0.05
LOWER_IS_BETTER = ("abs_error", "tokens", "rewrites")


@dataclass(frozen=True)
class MetricDelta:
    """One metric of two runs over the items they share, and how likely the change is noise."""

    metric: str
    items: int
    a: float
    b: float
    p_value: float

    @property
    def delta(self) -> float:
        return self.b - self.a

    @property
    def worse_points(self) -> float:
        """How far B fell behind A, in points of 100 (of the metric's own scale)."""
        sign = -1 if self.metric in LOWER_IS_BETTER else 1
        return -sign * self.delta * 100 if self.metric not in ("tokens", "points") else 0.0

    @property
    def flagged(self) -> bool:
        return self.worse_points > DROP_POINTS

    def line(self) -> str:
        mark = "DROP " if self.flagged else ""
        star = "*" if self.p_value < SIGNIFICANT else " "
        return (f"{mark:5s}{self.metric:22s} {self.a:9.3f} -> {self.b:9.3f}  "
                f"{self.delta:+9.3f}  p={self.p_value:.3f}{star}  (n={self.items})")


def compare_items(a: Mapping[str, Mapping[str, float]],
                  b: Mapping[str, Mapping[str, float]]) -> list[MetricDelta]:
    """Deltas for every metric scored on items both runs share (item id -> scores)."""
    shared = [i for i in a if i in b]
    metrics = sorted({k for i in shared for k in a[i]} & {k for i in shared for k in b[i]})
    out = []
    for metric in metrics:
        rows = [i for i in shared if metric in a[i] and metric in b[i]]
        xa = [float(a[i][metric]) for i in rows]
        xb = [float(b[i][metric]) for i in rows]
        out.append(MetricDelta(metric, len(rows), _mean(xa), _mean(xb),
                               paired_permutation(xa, xb)))
    return out


def report_lines(deltas: Sequence[MetricDelta], run_a: str, run_b: str) -> list[str]:
    head = f"     {'metric':22s} {run_a[:9]:>9s} -> {run_b[:9]:>9s}  {'delta':>9s}  paired p"
    lines = [head, *(d.line() for d in deltas)]
    flagged = [d.metric for d in deltas if d.flagged]
    lines.append(f"flagged: {', '.join(flagged)} (more than {DROP_POINTS:g} points worse)"
                 if flagged else f"no metric more than {DROP_POINTS:g} points worse")
    return lines


def _mean(values: Sequence[float]) -> float:
    kept = [v for v in values if v == v]
    return sum(kept) / len(kept) if kept else float("nan")
