"""A ReadingReport as JSON, Markdown, a self-contained HTML page and a terminal summary
(the renderer contract of ``domain.workflows``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup
from rich.markup import escape

from papermind import reports
from papermind.domain.evidence import VerificationSummary
from papermind.domain.reading import ReadingPoint, ReadingReport
from papermind.i18n import Translator
from papermind.reports.report_parts import (
    models_markdown,
    print_demo_label,
    report_strings,
    template_env,
)

if TYPE_CHECKING:
    from rich.console import Console

SECTIONS = (("method", "Method principle"), ("derivation", "Math derivation, step by step"),
            ("experiment", "Experiment design"), ("result", "Results and what they support"))
PACKAGE, TEMPLATE = "papermind.workflows.deep_reading", "reading_report.html.j2"
_e = reports.md_text  # paper, user and model text: escaped, inert in a Markdown viewer
_t = report_strings


def to_json(report: ReadingReport) -> dict[str, Any]:
    """JSON-ready dict; every evidence item in the one evidence JSON shape."""
    data = report.model_dump(mode="json")
    for point, dumped in zip(report.points, data["points"], strict=True):
        dumped["evidence"] = [reports.evidence_json(e) for e in point.evidence]
        dumped["status"] = point_status(point)
    data["verification"] = reports.summary_json(report.evidence())
    return data


def from_json(data: dict[str, Any]) -> ReadingReport:
    """A report read back from its ``to_json`` form (a stored report.json)."""
    data = dict(data)
    paper_id = str(data.get("paper_id", ""))
    points = []
    for point in data.get("points", []):
        point = {k: v for k, v in point.items() if k != "status"}
        point["evidence"] = [reports.as_evidence(e, paper_id) for e in point.get("evidence", [])]
        points.append(ReadingPoint.model_validate(point))
    data["points"] = points
    data["verification"] = VerificationSummary.of([e for p in points for e in p.evidence])
    return ReadingReport.model_validate(data)


def point_status(p: ReadingPoint) -> str:
    """'verified' only for a point found AND supported; otherwise what holds."""
    if p.verified:
        return "verified"
    if p.verdict == "not_found":
        return "NOT FOUND"
    return "found · support unchecked" if p.verdict == "unchecked" else \
        f"found · {p.verdict.replace('_', ' ')}"


def support_by(report: ReadingReport) -> str:
    """Who decided support, for the report's header: code alone or a checker model."""
    judges = sorted({p.verdict_by for p in report.points if p.verdict_by.startswith("checker")})
    if judges:
        return "code checks, then " + ", ".join(judges)
    return "code only (no support judge: the bundled model is not one)" \
        if report.demo_quality else "code only"


def _point_md(p: ReadingPoint, t: Translator) -> list[str]:
    if p.source == "extracted":
        return _extracted_md(p, t)
    out = [f"### {_e(p.id)} [{t(point_status(p))}]", "", _e(p.text), ""]
    details = [("Follows from", p.follows_from), ("Symbols", "; ".join(p.symbols)),
               ("Datasets", ", ".join(p.datasets)), ("Baselines", ", ".join(p.baselines)),
               ("Metrics", ", ".join(p.metrics)), ("Ablations", ", ".join(p.ablations)),
               ("Supports", p.supports)]
    out += [f"- **{t(name)}:** {_e(value)}" for name, value in details if value]
    out += [f"- {reports.markdown(e)}" for e in p.evidence] or [f"- {t('(no lines cited)')}"]
    if p.verdict_note:
        out.append(f"- **{t('Why')} ({_e(p.verdict_by or 'code')}):** {_e(p.verdict_note)}")
    return [*out, ""]


EXPLAINED = ("the model's words; code checked that they add no number or name and do not copy "
             "the passage, not that they mean the same")
"""How an explanation was checked, wherever one is shown."""


def _extracted_md(p: ReadingPoint, t: Translator) -> list[str]:
    """A passage code took from the paper: the paper's text, quoted, then the model's
    checked explanation (or why it is shown quoted only)."""
    out = [f"### {p.id} [{t(point_status(p))}]", ""]
    out += [f"> {line}" for line in _e(p.text).splitlines() or [""]] + [""]
    if p.explanation:
        out.append(f"- **{t('In plain words')}** ({t(EXPLAINED)}): {_e(p.explanation)}")
    elif p.explanation_note:
        out.append(f"- *{t('Not explained')}: {_e(p.explanation_note)}*")
    details = [("Symbols", "; ".join(p.symbols)), ("Datasets", ", ".join(p.datasets)),
               ("Baselines", ", ".join(p.baselines)), ("Metrics", ", ".join(p.metrics))]
    out += [f"- **{t(name)}:** {_e(value)}" for name, value in details if value]
    out += [f"- {reports.markdown(e, details=False)}" for e in p.evidence]
    if p.verdict_note:
        out.append(f"- **{t('Why')} ({p.verdict_by or 'code'}):** "
                   f"{_e(p.verdict_note)}")
    return [*out, ""]


def to_markdown(report: ReadingReport) -> str:
    """The report as Markdown: each citation through the one renderer (anchor, status)."""
    v, t = report.verification, _t(report)
    out = [_t(report)("# Deep reading: {title}", title=_e(report.title or report.paper_id)), ""]
    if report.demo_quality:
        out += [f"> **{reports.DEMO_LABEL}**: answers come from a small offline model; configure an "
                "endpoint for real quality.", ""]
    out += [f"- {t('Paper')}: {_e(report.paper_id)}",
            f"- {t('Overall credibility')}: **{t(report.credibility).upper()}**",
            "- " + t("Citations: {total}; found {found}; verified (found and supported) "
                     "{verified}; contradicted {contradicted}; not enough {not_enough}; "
                     "unchecked {unchecked}", total=v.total, found=v.found, verified=v.verified,
                     contradicted=v.contradicted, not_enough=v.not_enough,
                     unchecked=v.unchecked),
            f"- {t('Support judged by')}: {support_by(report)}",
            f"- {t('Rewrites')}: {report.rewrites}", ""]
    for kind, heading in SECTIONS:
        points = [p for p in report.points if p.kind == kind]
        out += [f"## {t(heading)}", ""] + ([line for p in points for line in _point_md(p, t)]
                                            or [t("(none)"), ""])
    out += _questions_md(report) + _checks_md(report) + _context_md(report)
    out += _usage_md(report) + _history_md(report)
    if report.warnings:
        out += [f"## {_t(report)('Warnings')}", ""] + [f"- {_e(w)}" for w in report.warnings] + [""]
    return "\n".join(out).rstrip() + "\n"


def _questions_md(report: ReadingReport) -> list[str]:
    out = [f"## {_t(report)('Questions to think further')}", ""]
    out += [f"{n}. {_e(q.text)} (builds on {', '.join(q.builds_on)}"
            + "".join(f"; {a.label()}" for a in q.anchors) + ")"
            + (f" - {_e(q.why)}" if q.why else "")
            for n, q in enumerate(report.questions, start=1)] or ["(none)"]
    if report.dropped_questions:
        out += ["", "Dropped questions:"]
        out += [f"- {_e(d.text)} ({_e(d.reason)})" for d in report.dropped_questions]
    return [*out, ""]


def _checks_md(report: ReadingReport) -> list[str]:
    out = [f"## {_t(report)('Checks and rewrites')}", "", "| round | credibility | points found | points "
           "verified | citations found | citations verified | notes |",
           "|---|---|---|---|---|---|---|"]
    out += [f"| {r.round} | {r.credibility} | {r.found_points}/{r.points} | "
            f"{r.verified_points}/{r.points} | {r.found_quotes}/{r.quotes} | "
            f"{r.verified_quotes}/{r.quotes} | {_e('; '.join(r.notes) or '-')} |"
            for r in report.rounds]
    for rev in report.revisions:
        out += ["", f"### {_e(rev.summary())} (credibility before: {rev.credibility_before})", "",
                "Feedback given to the reader:", ""]
        out += [f"> {_e(line)}" for line in rev.feedback.splitlines()] + [""]
        for c in rev.changes:
            ids = _e(f"{c.before_id or '-'} -> {c.after_id or '-'}")
            text = _e(c.after if c.change == "added" else c.before)
            more = f" => {_e(c.after)}" if c.change == "revised" and c.after != c.before else ""
            out.append(f"- {c.change} {c.kind} ({ids}): {text}{more}"
                       + (f" [{_e(c.note)}]" if c.note else ""))
    return [*out, ""]


def _context_md(report: ReadingReport) -> list[str]:
    c = report.context
    out = [f"## {_t(report)('What the reader saw')}", "", context_head(report), ""]
    out += [f"- {n}" for n in c.notes]
    if c.method == "passages":
        out += ["", "| section | sentences read by code | passages taken |", "|---|---|---|"]
        out += [f"| {_e(s.title)} | {s.sentences_full} | {s.passages} |"
                for s in c.sections]
    elif c.method in ("sections", "extractive"):
        out += ["", "| section | tokens seen | sentences seen |", "|---|---|---|"]
        out += [f"| {_e(s.title)} | "
                f"{'not read' if s.omitted else f'{s.tokens_kept}/{s.tokens_full}'}"
                f" | {s.sentences_kept}/{s.sentences_full} |" for s in c.sections]
    return [*out, ""]


def context_head(report: ReadingReport) -> str:
    """One sentence on what the reader saw."""
    c = report.context
    if c.method == "passages":
        return ("Extractive reading: code read every section and chose the passages; the "
                "model explained each passage it was handed.")
    if c.method == "sections":
        return (f"Read section by section: {c.paper_tokens} tokens in parts of at most "
                f"{c.budget_tokens}, every section seen.")
    if c.condensed:
        return (f"Condensed (extractive) from {c.paper_tokens} to {c.context_tokens} tokens, "
                f"budget {c.budget_tokens}.")
    return f"Full paper given to the reader ({c.paper_tokens} tokens)."


def _usage_md(report: ReadingReport) -> list[str]:
    u = report.usage
    out = [f"## {_t(report)('Models and token usage')}", ""]
    out += models_markdown(report.models)
    out += [f"- total: {u.tokens_in} in, {u.tokens_out} out, ${u.cost_usd:.4f}", "",
            "| node | calls | tokens in | tokens out |", "|---|---|---|---|"]
    out += [f"| {_e(n)} | {x.calls} | {x.tokens_in} | {x.tokens_out} |" for n, x in u.by_node.items()]
    return [*out, ""]


def _history_md(report: ReadingReport) -> list[str]:
    out = [f"## {_t(report)('History')}", "", "| node | started | finished | summary |", "|---|---|---|---|"]
    out += [f"| {_e(h.node)} | {_e(h.started)} | {_e(h.finished)} | {_e(h.summary)} |"
            for h in report.history]
    return [*out, ""]


def _values(report: ReadingReport) -> dict[str, Any]:
    return {"r": report, "sections": SECTIONS, "demo_label": reports.DEMO_LABEL,
            "point_status": point_status, "support_by": support_by(report),
            "context_head": context_head(report), "explained": EXPLAINED}


def to_html(report: ReadingReport) -> str:
    """A self-contained page; every citation is a ``.cite`` element with data-* anchors."""
    return template_env(PACKAGE).get_template(TEMPLATE).render(_values(report))


def to_html_body(report: ReadingReport) -> Markup:
    """The page's content only, for a layout around it (the web UI)."""
    template = template_env(PACKAGE).get_template(TEMPLATE)
    return reports.render_block(template, "content", **_values(report))


def to_terminal(console: Console, report: ReadingReport, job_id: str) -> None:
    """The CLI summary: credibility, each point with its status and citations, questions."""
    print_demo_label(console, report)
    v = report.verification
    console.print(f"[bold]{escape(report.title or report.paper_id)}[/]  credibility "
                  f"[bold]{report.credibility.upper()}[/], citations found {v.found}/{v.total}, "
                  f"supported {v.supported}/{v.total}, rewrites {report.rewrites}",
                  highlight=False)
    for p in report.points:
        color = "green" if p.verified else "red" if p.verdict in (
            "not_found", "contradicted") else "yellow"
        text = f'"{p.text}"' if p.source == "extracted" else p.text
        console.print(f"{p.id} [{color}]{escape(point_status(p))}[/] {escape(text)}",
                      highlight=False)
        if p.explanation:
            console.print(f"    in plain words (model; code checked its words, not its "
                          f"meaning): {escape(p.explanation)}", highlight=False)
        for e in p.evidence:
            console.print(f"    {escape(reports.text(e, details=False))}", highlight=False,
                          style="dim")
    if report.questions:
        console.print("[bold]Questions[/]")
        for n, q in enumerate(report.questions, start=1):
            where = "; ".join([", ".join(q.builds_on), *(a.label() for a in q.anchors)])
            console.print(f"{n}. {escape(q.text)} [dim](builds on {escape(where)})[/]",
                          highlight=False)
    console.print(f"job {job_id}; tokens {report.usage.tokens_in} in / "
                  f"{report.usage.tokens_out} out", highlight=False)

