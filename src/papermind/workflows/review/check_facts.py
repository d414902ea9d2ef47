"""The check's findings as facts for the panel: the editor sees them all, each reviewer those
on the lines it is shown (and those about the whole paper), the meta-reviewer the high ones;
afterwards code lists the high ones no comment addressed. Pure functions of domain data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from papermind.domain import LineRef
from papermind.domain.check import CheckFinding, CheckReport
from papermind.domain.review import ReportComment

SLACK = 2
"""A comment addresses a finding when its anchor lies within this many lines of it."""
NONE = "(the code check found nothing here)"


def facts(findings: Sequence[CheckFinding]) -> str:
    """One line per finding: severity, where (line id), kind, message, the paper's text."""
    if not findings:
        return NONE
    out = []
    for f in findings:
        where = f"{f.anchor.page}:{f.anchor.line_start}" if f.anchor else (f.where() or "paper")
        out.append(f"- [{f.severity}] {where} {f.kind}: {f.message}"
                   + (f' (text: "{f.text[:160]}")' if f.text else ""))
    return "\n".join(out)


def for_lines(check: CheckReport | None, lines: Iterable[LineRef] | None) -> list[CheckFinding]:
    """The findings on the shown ``lines`` (None: all lines), and those about the whole paper."""
    if check is None:
        return []
    if lines is None:
        return list(check.findings)
    shown = {(ref.page, ref.line) for ref in lines}
    return [f for f in check.findings if f.anchor is None or
            (f.anchor.page, f.anchor.line_start) in shown]


def high(check: CheckReport | None) -> list[CheckFinding]:
    return [f for f in check.findings if f.severity == "high"] if check is not None else []


def unaddressed(check: CheckReport | None,
                comments: Sequence[ReportComment]) -> list[CheckFinding]:
    """High-severity findings no comment's evidence anchors within SLACK lines of."""
    spans = [(a.get("page"), int(a.get("line_start", 0)), int(a.get("line_end", 0)))
             for c in comments for e in c.evidence if isinstance(a := e.get("anchor"), dict)]
    return [f for f in high(check) if f.anchor is None or not any(
        page == f.anchor.page and start - SLACK <= f.anchor.line_start <= end + SLACK
        for page, start, end in spans)]
