"""The one rendering of a check: JSON (CLI --json, API), Markdown (inside review reports),
a terminal table (CLI) and links into the reader (web). Domain only.

The same function names as a workflow's renderer (``to_json``, ``to_markdown``,
``to_terminal``; see ``domain.workflows``). No HTML page and no ``from_json``: a check is
not a job, writes no report files, and the web renders it inside its paper page.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from papermind.domain.check import CheckFinding, CheckReport
from papermind.reports.citations import anchor_json, page_href
from papermind.reports.markdown_text import md_text

if TYPE_CHECKING:
    from rich.console import Console

ASPECT_TITLES = {"soundness": "Numbers and claims", "citations": "Citations and bibliography",
                 "presentation": "References to tables, figures, sections; acronyms",
                 "integrity": "Instructions to reviewers or models",
                 "anonymity": "Anonymity", "venue": "Venue requirements"}
"""Aspect -> heading, in the order reports show them."""
_COLOURS = {"high": "red", "medium": "yellow", "low": "cyan"}


def finding_json(f: CheckFinding) -> dict[str, Any]:
    """``{kind, severity, aspect, message, where, text, fix, anchor, source[, comment]}``."""
    out: dict[str, Any] = {
        "kind": f.kind, "severity": f.severity, "aspect": f.aspect, "message": f.message,
        "where": f.where(), "text": f.text, "fix": f.fix, "anchor": anchor_json(f.anchor),
        "source": f.source.model_dump() if f.source is not None else None}
    if f.comment:
        out["comment"] = f.comment
    if f.comment_note:
        out["comment_note"] = f.comment_note
    return out


def to_json(report: CheckReport) -> dict[str, Any]:
    """The whole report: what was checked, counts by severity, findings, notes."""
    return {"paper_id": report.paper_id, "title": report.title,
            "source_name": report.source_name, "venue": report.venue,
            "anonymous": report.anonymous, "counts": report.counts(),
            "findings": [finding_json(f) for f in report.findings], "notes": report.notes}


def by_aspect(findings: Iterable[CheckFinding]) -> list[tuple[str, list[CheckFinding]]]:
    """(aspect heading, its findings) in the report order; empty aspects left out."""
    grouped: dict[str, list[CheckFinding]] = {a: [] for a in ASPECT_TITLES}
    for f in findings:
        grouped.setdefault(f.aspect, []).append(f)
    return [(ASPECT_TITLES.get(a, a), fs) for a, fs in grouped.items() if fs]


def finding_markdown(f: CheckFinding) -> str:
    """One bullet: severity, where, message, the paper's text, the fix."""
    where = f" ({md_text(f.where())})" if f.where() else ""
    out = f"- **{f.severity}** `{f.kind}`{where}: {md_text(f.message)}"
    if f.text:
        out += f"\n  > {md_text(_clip(f.text))}"
    if f.fix:
        out += f"\n  Fix: {md_text(f.fix)}"
    if f.comment:
        out += f"\n  Comment: {md_text(f.comment)}"
    elif f.comment_note:
        out += f"\n  {md_text(f.comment_note[:1].upper() + f.comment_note[1:])}"
    return out


def to_markdown(report: CheckReport, *, heading: str = "##") -> str:
    """The findings as Markdown, grouped by aspect (used in review reports too)."""
    counts = report.counts()
    parts = [f"{heading} Check findings",
             f"{len(report.findings)} findings: {counts['high']} high, {counts['medium']} medium, "
             f"{counts['low']} low."]
    for title, findings in by_aspect(report.findings):
        parts.append(f"{heading}# {title}\n\n" + "\n".join(finding_markdown(f) for f in findings))
    parts += [f"_Note: {md_text(note)}_" for note in report.notes]
    return "\n\n".join(parts) + "\n"


def to_terminal(console: Console, report: CheckReport, job_id: str = "") -> None:
    """The findings as a table (severity, where, kind, message), then the notes."""
    from rich.table import Table

    counts = report.counts()
    console.print(f"[bold]{escape(report.title or report.source_name)}[/]: "
                  f"{len(report.findings)} findings ({counts['high']} high, "
                  f"{counts['medium']} medium, {counts['low']} low)")
    if report.findings:
        table = Table(show_lines=False)
        for column in ("severity", "where", "kind", "message"):
            table.add_column(column)
        for f in report.findings:
            table.add_row(f"[{_COLOURS[f.severity]}]{f.severity}[/]", escape(f.where() or "-"),
                          f.kind, escape(f.message))
        console.print(table)
    for note in report.notes:
        console.print(f"note: {escape(note)}")


def finding_href(f: CheckFinding, paper_id: str = "") -> str | None:
    """The reader on the finding's lines, or None (a source line or the whole paper)."""
    return page_href(f.anchor, paper_id=paper_id) if f.anchor is not None else None


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
