"""Instructions to reviewers or models: lines of the text that address one (visible), and the
findings ingestion made (hidden text, graded; any other kind it adds is passed on as is)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from papermind.domain.check import CheckFinding
from papermind.domain.paper import Finding, Paper
from papermind.grounding.paper_check.spots import Spot, at_line, finding


def instruction_findings(spots: Sequence[Spot],
                         addresses: Callable[[str], bool]) -> list[CheckFinding]:
    """Lines that tell a reviewer or model what to do (``addresses`` decides)."""
    return [finding("instruction_to_reviewers", "high", "integrity",
                    "this line addresses reviewers or language models, not readers", spot,
                    fix="remove it: instructions to reviewers or models are grounds for rejection")
            for spot in spots if addresses(spot.text)]


def ingest_findings(paper: Paper) -> list[CheckFinding]:
    """The paper's own findings (hidden text...), anchored at the nearest flow line."""
    out = []
    for f in paper.findings:
        spot = _nearest(paper, f)
        out.append(finding(f.kind, f.severity, "integrity",
                           f"{f.kind.replace('_', ' ')}: {f.reason}", spot, text=f.text,
                           fix="remove it" if f.severity == "high" else ""))
    return out


def _nearest(paper: Paper, f: Finding) -> Spot | None:
    if not 1 <= f.page <= len(paper.pages) or not paper.page(f.page).lines:
        return None
    lines = paper.page(f.page).lines
    if f.box is None:
        return at_line(paper, f.page, 1)
    y = (f.box.y0 + f.box.y1) / 2
    best = min(lines, key=lambda ln: abs((ln.box.y0 + ln.box.y1) / 2 - y) if ln.box else 1e9)
    return at_line(paper, f.page, best.n)
