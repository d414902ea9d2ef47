"""Render a ReviewReport as JSON, Markdown, a self-contained HTML page and a terminal
summary (the renderer contract of ``domain.workflows``).

Every evidence item goes through the one citation renderer of ``papermind.reports`` (the
report stores it as data, in the one evidence JSON shape), so the CLI, Markdown, HTML and
the web UI say the same thing the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from papermind import reports
from papermind.domain import Evidence
from papermind.domain.review import ReportComment, ReportFlag, ReviewReport
from papermind.reports import check as check_render
from papermind.reports.check import by_aspect, finding_href, finding_markdown
from papermind.reports.citations import as_evidence
from papermind.reports.report_parts import (
    models_markdown,
    print_demo_label,
    report_strings,
    template_env,
)
from papermind.workflows.review.consistency import verdict_line

if TYPE_CHECKING:
    from rich.console import Console

_LABELS = {"accept": "accept", "minor_revision": "minor revision",
           "major_revision": "major revision", "reject": "reject"}
PACKAGE, TEMPLATE = "papermind.workflows.review", "report.html.j2"
_t = report_strings


def to_json(report: ReviewReport) -> dict[str, Any]:
    """JSON form: every evidence item in the one evidence JSON shape (quote, found, anchor,
    support), anchors as data."""
    return report.model_dump(mode="json")


def from_json(data: dict[str, Any]) -> ReviewReport:
    """A report read back from its ``to_json`` form (a stored report.json)."""
    return ReviewReport.model_validate(data)


def evidence_of(report: ReviewReport, item: dict[str, Any]) -> Evidence:
    """A stored evidence item read back, for the one renderer."""
    return as_evidence(item, report.paper_id)


def label_of(report: ReviewReport, message_id: str | None) -> str:
    """The human label of a message ('Methodology reviewer, comment 2'); its id otherwise."""
    labels = {c.message_id: c.label for c in report.comments if c.label}
    return labels.get(message_id or "", message_id or "")


def name_of(report: ReviewReport, role: str) -> str:
    """The display name of a panel role ('Methodology reviewer'); the role otherwise."""
    return report.names.get(role, role)


_e = reports.md_text  # paper, user and model text: escaped, inert in a Markdown viewer


def comment_status(c: ReportComment) -> str:
    """'verified' only when the comment's lines are found AND supported and every work it
    cites is in the bibliography; otherwise 'not verified: ' and what did not hold."""
    if c.verified:
        return "verified"
    parts = []
    if not c.found:
        parts.append("cited lines not found" if c.evidence else "no lines cited")
    elif c.support != "supported":
        parts.append(f"lines found, support {c.support.replace('_', ' ')}")
    if c.flags:
        parts.append("cites a work not in the bibliography")
    return "not verified: " + "; ".join(parts)


def flag_groups(flags: Sequence[ReportFlag]) -> list[tuple[str, int, list[str]]]:
    """Each kind of flag once: (its words, how many, their messages)."""
    groups: dict[str, list[str]] = {}
    for flag in flags:
        groups.setdefault(flag.kind.replace("_", " "), []).append(flag.message)
    return [(kind, len(messages), messages) for kind, messages in groups.items()]


def flag_line(kind: str, count: int) -> str:
    """'flag: unresolved reference' or 'flag: unresolved reference ×3'."""
    return f"flag: {kind}" + (f" ×{count}" if count > 1 else "")


def _comment_lines(report: ReviewReport, c: ReportComment) -> list[str]:
    """One status (the comment's); the evidence as links; each kind of flag once with its
    count; the details (why a line was not found, what each flag says) below."""
    about = f" (on {_e(label_of(report, c.reply_to))})" if c.reply_to else ""
    refs = "".join(f" [ref {_e(r.cited)}: "
                   f"{'in bibliography' if r.resolved else 'NOT in bibliography'}]"
                   for r in c.references)
    head = (f"- **{_e(c.label or c.message_id)}** {_e(c.kind)}{about} [{_e(c.target)}] "
            f"{_e(c.content)} "
            f"(confidence {c.confidence:.2f}, weight {c.weight:.2f}; {comment_status(c)}){refs}")
    items = [evidence_of(report, e) for e in c.evidence]
    lines = [f"  - {reports.markdown(e, details=False, status=False)}" for e in items
             if e.found] or ([] if items else ["  - no lines cited"])
    lines += [f"  - **{flag_line(kind, n)}**" for kind, n, _ in flag_groups(c.flags)]
    details = [f"{reports.where(e)}: {reports.status_label(e)}" for e in items if not e.verified]
    details += [f"{kind}: {m}" for kind, _, messages in flag_groups(c.flags) for m in messages]
    if details:
        lines.append("  - details: " + _e("; ".join(details)))
    return [head, *lines]


def _flag(flag: ReportFlag) -> str:
    return f"{flag.kind.replace('_', ' ')}: {_e(flag.message)}"


def to_markdown(report: ReviewReport) -> str:
    """Markdown report; each evidence item linked as 'p. X, l. Y-Z' with its status."""
    out = [_t(report)("# Pre-review: {title}", title=_e(report.title)), "",
           f"> {_e(report.disclaimer)}"]
    if report.demo_quality:
        out.append(f"> **{reports.DEMO_LABEL}** — configure a real endpoint for useful reviews.")
    if report.findings:
        out += ["", f"## {_t(report)('Findings from ingestion: hidden text, instructions to reviewers')}", ""]
        out += [f"- p. {f.page}: {_e(f.kind)}: “{_e(f.text)}” ({_e(f.reason)})"
                for f in report.findings]
    out += _check(report)
    if report.scoring_note:
        out += ["", f"**{_e(report.scoring_note)}**"]
        out += [f"- **warning** {_e(w)}" for w in report.warnings]
        return "\n".join(out + [""] + _usage(report)).rstrip() + "\n"
    rec = _LABELS.get(report.recommendation or "", "none")
    said = (f"**{_e(report.recommendation_withheld)}**" if report.recommendation_withheld else
            f"**{rec}** (confidence {report.recommendation_confidence:.2f})")
    out += ["", f"## {_t(report)('Recommendation')}", "",
            f"{said} after {report.rounds} adversarial round(s). "
            f"Panel: {', '.join(_e(name_of(report, role)) for role in report.panel)}."]
    out += [f"- **flag** {_flag(f)}" for f in report.flags]
    out += [f"- **warning** {_e(w)}" for w in report.warnings]
    if report.editor_summary:
        out += ["", f"Editor: {_e(report.editor_summary)}"]
    out += ["", f"## {_t(report)('Scores')}", "", "| reviewer | aspect | original (frozen) | final | change |",
            "|---|---|---|---|---|"]
    out += [f"| {_e(s.name or s.reviewer)} | {_e(s.aspect)} | {s.original:g} | {s.final:g} "
            f"| {_e(s.change or '-')} |"
            for s in report.scores]
    out += ["", f"## {_t(report)('Who said what')}", ""]
    for sender in dict.fromkeys(c.sender for c in report.comments):
        out += [f"### {_e(name_of(report, sender))}", ""]
        out += [line for c in report.comments if c.sender == sender
                for line in _comment_lines(report, c)] + [""]
    out += _settled(report) + _plan(report) + _unverified(report) + _related(report)
    out += _metrics(report) + _usage(report)
    return "\n".join(out).rstrip() + "\n"


def _check(report: ReviewReport) -> list[str]:
    """The check the panel started from (papermind check), by aspect, and the high-severity
    findings no comment addressed."""
    if report.check is None:
        return []
    out = ["", check_render.to_markdown(report.check).rstrip()]
    if report.unaddressed and not report.scoring_note:
        out += ["", f"## {_t(report)('High-severity check findings the panel did not address')}",
                ""]
        out += [finding_markdown(f) for f in report.unaddressed]
    return out


def _settled(report: ReviewReport) -> list[str]:
    verdicts = {a.disagreement_id: a for a in report.arbitrations}
    out = [f"## {_t(report)('Disagreements and how they were settled')}", ""]
    for d in report.disagreements:
        a = verdicts.get(d.id)
        out.append(f"- {_e(d.id)} ({_e(d.kind)}, round {d.round}): {_e(d.summary)} → "
                   + (f"**{_e(a.verdict)}**: {_e(a.reason)}" if a else "not arbitrated"))
    for change in report.score_changes:
        status = "accepted" if change.accepted else f"REJECTED ({change.rejection})"
        out.append(f"- score change {_e(name_of(report, change.reviewer))}: "
                   f"{_e(change.label())} — {_e(status)}")
    return out + ([] if len(out) > 2 else ["- none"]) + [""]


def _plan(report: ReviewReport) -> list[str]:
    out = [f"## {_t(report)('Prioritised revision plan')}", ""]
    for item in report.revision_plan:
        where = "; ".join(reports.markdown(evidence_of(report, e), details=False)
                          for e in item.evidence) or "no found lines"
        out.append(f"{item.priority}. {_e(item.action)} (addresses "
                   f"{', '.join(_e(label_of(report, a)) for a in item.addresses) or '-'}; {where})")
    return out + ([] if report.revision_plan else ["- none"]) + [""]


def _unverified(report: ReviewReport) -> list[str]:
    out = [f"## {_t(report)('Not verified: evidence and references')}", ""]
    for u in report.unverified:
        shown = (reports.markdown(evidence_of(report, u.evidence), details=False)
                 if u.evidence else f"“{_e(u.text)}”")
        what = "cited work NOT in the bibliography" if u.kind == "reference" else "evidence"
        why = "" if u.evidence else f" — {_e(u.reason)}"
        out.append(f"- {what} in {_e(label_of(report, u.message_id))}: {shown}{why}")
    return out + ([] if report.unverified else ["- none"]) + [""]


def _related(report: ReviewReport) -> list[str]:
    """The related work the contribution reviewer saw (online runs only), by id."""
    if not report.related_work:
        return []
    out = [f"## {_t(report)('Related work from the scholarly sources (external, not verified)')}",
           ""]
    for n, work in enumerate(report.related_work, 1):
        where = f" doi:{work.doi}" if work.doi else (f" {work.url}" if work.url else "")
        out.append(f"- R{n}: {work.title} ({work.year or 'n.d.'}){where}")
    return out + [""]


def _metrics(report: ReviewReport) -> list[str]:
    m, v = report.metrics, report.verification
    return [f"## {_t(report)('Metrics')}", "",
            f"- independence: {m.independence:.2f} (issue overlap {m.issue_overlap:.2f})",
            f"- adversarial coverage: {m.claims_attacked}/{m.positive_claims} positive claims "
            f"attacked ({m.attack_coverage:.2f}); {m.attacks_tied}/{m.attacks} attacks tied to "
            f"an excerpt ({m.attacks_tied_share:.2f})",
            f"- traceability (share found): {m.comments_traceable}/{m.comments} comments and plan "
            f"items map to a message with a found anchor ({m.traceability:.2f})",
            f"- share supported: {m.comments_supported}/{m.comments} map to a found AND "
            f"supported anchor ({m.share_supported:.2f})",
            f"- comments: {v.found}/{v.total} found ({v.share_found:.2f}), {v.supported}/"
            f"{v.total} verified = found and supported ({v.share_supported:.2f}); of the found: "
            f"{v.contradicted} contradicted, {v.not_enough} not enough, {v.unchecked} support "
            f"unchecked; {v.references_unresolved} cite a work not in the bibliography", ""]


def _usage(report: ReviewReport) -> list[str]:
    u = report.usage
    out = [f"## {_t(report)('Usage and cost')}", "",
           f"- tokens in {u.get('tokens_in', 0)}, out {u.get('tokens_out', 0)}, "
           f"cost ${float(u.get('cost_usd', 0.0)):.4f}"]
    out += models_markdown(report.models)
    out += ["", f"## {_t(report)('History')}", ""]
    out += [f"- {_e(h.get('node'))}: {_e(h.get('summary', ''))}" for h in report.history]
    if report.signoff:
        out += ["", f"## {_t(report)('Sign-off')}", "", f"- {_e(report.signoff)}"]
    return out


def _values(report: ReviewReport) -> dict[str, Any]:
    return {"r": report, "labels": _LABELS, "ev": lambda item: evidence_of(report, item),
            "comment_status": comment_status, "flag_groups": flag_groups,
            "flag_line": flag_line, "label": lambda mid: label_of(report, mid),
            "name": lambda role: name_of(report, role), "demo_label": reports.DEMO_LABEL,
            "check_groups": by_aspect(report.check.findings) if report.check else [],
            "check_href": lambda f: finding_href(f, report.paper_id)}


def to_html(report: ReviewReport) -> str:
    """Self-contained HTML; every evidence item is the one renderer's ``span.cite``."""
    return template_env(PACKAGE).get_template(TEMPLATE).render(
        _values(report))


def to_html_body(report: ReviewReport) -> Markup:
    """The page's content only, for a layout around it (the web UI)."""
    return reports.render_block(template_env(PACKAGE).get_template(
        TEMPLATE), "content", **_values(report))


def to_terminal(console: Console, report: ReviewReport, job_id: str) -> None:
    """The CLI summary: recommendation, scores, flags, each comment with its status."""
    console.print(f"[italic]{report.disclaimer}[/]")
    print_demo_label(console, report)
    for finding in report.findings:
        colour = {"high": "red", "medium": "yellow"}.get(finding.severity, "dim")
        console.print(f"[{colour}]hidden text ({finding.severity})[/] p. {finding.page}: "
                      f"{finding.text!r} ({finding.reason})", highlight=False)
    title = report.title or report.paper_id
    if report.recommendation is None:  # offline, or too little evidence: it says why
        console.print(f"[bold]{title}[/]: {verdict_line(report)}", highlight=False)
    else:
        console.print(f"[bold]{title}[/]: [bold]{report.recommendation}[/] (confidence "
                      f"{report.recommendation_confidence:.2f}, {report.rounds} round(s))",
                      highlight=False)
    for s in report.scores:
        console.print(f"  {s.name or s.reviewer} ({s.aspect}): {s.original:g} -> {s.final:g}"
                      f"{'  ' + s.change if s.change else ''}", highlight=False)
    for flag in report.flags:
        console.print(f"[red]flag[/] {flag.message}", highlight=False)
    for c in report.comments:
        where = "; ".join(reports.text(evidence_of(report, e), details=False)
                          for e in c.evidence)
        flags = "".join(f"; flag: {f.message}" for f in c.flags)
        console.print(f"{c.label or c.message_id} ({c.kind}): {c.content} ({comment_status(c)}"
                      f"; {where or 'no lines cited'}{flags})", highlight=False, markup=False)
    m, v, u = report.metrics, report.verification, report.usage
    console.print(f"independence {m.independence:.2f}, attack coverage {m.attack_coverage:.2f}, "
                  f"traceability (found) {m.traceability:.2f}, supported {m.share_supported:.2f}; "
                  f"comments found {v.found}/{v.total}, verified {v.supported}/{v.total}; "
                  f"tokens {u.get('tokens_in', 0)} in / {u.get('tokens_out', 0)} out; "
                  f"job {job_id}", highlight=False)
