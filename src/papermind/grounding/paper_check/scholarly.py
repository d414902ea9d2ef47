"""The bibliography checked against the scholarly sources, as check findings: a reference
check's verdicts (domain/scholar.py) turned into CheckFindings at each entry's page and line.
One finding per entry, the most severe: retracted (high), then a field that differs from
the record or an entry no source knows (medium). A source that was down is a note."""

from __future__ import annotations

from papermind.domain.check import CheckFinding
from papermind.domain.paper import Paper, Reference
from papermind.domain.scholar import ReferencesReport, ReferenceVerdict
from papermind.grounding.paper_check.spots import Spot, at_line, finding

_FIXES = {"reference_retracted": "cite the work only as retracted, or drop it",
          "reference_mismatch": "correct the entry to match the published record",
          "reference_not_found": "check the entry against the work you read; correct or remove it"}


def scholarly_findings(paper: Paper, report: ReferencesReport) -> tuple[list[CheckFinding],
                                                                      list[str]]:
    """(findings for retracted, mismatched and unknown entries; notes on sources down)."""
    entries = {ref.index: ref for ref in paper.references}
    found = []
    for verdict in report.references:
        kind = _kind(verdict)
        if kind is None:
            continue
        ref = entries.get(verdict.index)
        fix = "; ".join([*verdict.notes, _FIXES[kind]])
        found.append(finding(kind, "high" if kind == "reference_retracted" else "medium",
                             "citations", f"bibliography entry {verdict.index}: {verdict.message}",
                             _spot(paper, ref), text=verdict.text, fix=fix))
    notes = [s.message or f"{s.label} is down" for s in report.sources if s.status == "down"]
    return found, notes


def _kind(verdict: ReferenceVerdict) -> str | None:
    if verdict.retracted:
        return "reference_retracted"
    if verdict.status == "mismatch":
        return "reference_mismatch"
    return "reference_not_found" if verdict.status == "not_found" else None


def _spot(paper: Paper, ref: Reference | None) -> Spot | None:
    if ref is None or ref.page is None or ref.line is None:
        return None
    return at_line(paper, ref.page, ref.line)
