"""A QAReport (deep or single-pass) as JSON, Markdown, a self-contained HTML page and a
terminal summary (the renderer contract of ``domain.workflows``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup
from rich.markup import escape

from papermind import reports
from papermind.domain.answer import AnswerSentence, EvidenceItem, QAReport, Strategy
from papermind.domain.evidence import Evidence
from papermind.reports.report_parts import (
    models_markdown,
    print_demo_label,
    report_strings,
    template_env,
)
from papermind.workflows.deep_qa.report import report_from_json, report_json

if TYPE_CHECKING:
    from rich.console import Console

STATUS_TEXT = {"answered": "answered", "extractive": "extractive (model output unusable; "
               "showing the best supported quotes)",
               "insufficient_evidence": "INSUFFICIENT EVIDENCE: the papers found do not answer "
                                        "this question (the evidence found is listed)"}
PACKAGE, TEMPLATE = "papermind.workflows.deep_qa", "answer.html.j2"
_t = report_strings


def from_json(data: dict[str, Any]) -> QAReport:
    """A report read back from its ``to_json`` form (a stored report.json)."""
    return report_from_json(data)


def to_json(report: QAReport) -> dict[str, Any]:
    """JSON-ready dict; every evidence item in the one evidence JSON shape."""
    return report_json(report)


def cite(e: Evidence) -> str:
    """One citation in one line, through the one renderer ('[p. 3, l. 12-14] verified')."""
    return reports.text(e, details=False)


def sentence_status(s: AnswerSentence) -> str:
    """'verified' only when a citation was found AND supports the sentence."""
    if s.verified:
        return "verified"
    if not any(c.evidence.found for c in s.citations):
        return "citations NOT FOUND" if s.citations else "no citation"
    words = "support unchecked" if s.support == "unchecked" else s.support.replace("_", " ")
    return f"found · {words}" + (f" ({s.reason})" if s.reason else "")


def _source(item: EvidenceItem) -> str:
    if item.kind == "computed":
        return "calculator"
    name = item.title or item.paper_id[:12]
    return f"{name} ({item.year})" if item.year else name


def _years(s: Strategy) -> str:
    if s.year_min is None and s.year_max is None:
        return ""
    return f"{s.year_min or '...'}-{s.year_max or '...'}"


_e = reports.md_text  # paper, user and model text: escaped, inert in a Markdown viewer


def _cell(text: str, limit: int = 220) -> str:
    return _e(text, limit)


def to_markdown(report: QAReport) -> str:
    """Markdown: anchors 'p. X, l. Y-Z'; unverified items marked UNVERIFIED."""
    out = [_t(report)("# Question: {question}", question=_e(report.question)), ""]
    if report.demo_quality:
        out += [f"> **{reports.DEMO_LABEL}**: a small offline model wrote this; configure an endpoint "
                "for real quality.", ""]
    out += [f"**Status:** {STATUS_TEXT[report.status]}", ""]
    out += _answer_md(report)
    if report.contradictions:
        out += [f"## {_t(report)('Disagreements between sources')}", ""]
        out += [f"- {_e(c.first)} ({c.first_year or 'n.d.'}, "
                f"{c.first_anchor.label() if c.first_anchor else 'UNVERIFIED'}) vs {_e(c.second)} "
                f"({c.second_year or 'n.d.'}, "
                f"{c.second_anchor.label() if c.second_anchor else 'UNVERIFIED'}): {_e(c.note)}"
                for c in report.contradictions] + [""]
    out += _tables_md(report)
    out += [f"## {_t(report)('Steps')}", ""] + [
        f"{i}. {_e(s.node)}{_task_tag(s.task_id)}: {_e(s.summary)}"
        for i, s in enumerate(report.history, 1)] + [""]
    v = report.verification
    out += [f"## {_t(report)('Verification')}", "", f"{v.total} citation(s) in the answer as written: "
            f"{v.found} found, {v.supported} supported (verified), {v.contradicted} "
            f"contradicted, {v.not_enough} not enough, {v.unchecked} unchecked. "
            f"Stop: {_e(report.stop_reason or '-')}.", ""]
    if report.notes:
        out += [f"## {_t(report)('Notes')}", ""] + [f"- {_e(n)}" for n in report.notes] + [""]
    out += [f"## {_t(report)('Models and usage')}", "", *models_markdown(report.models)]
    out += [f"- tokens in/out: {report.usage.get('tokens_in', 0)}/"
            f"{report.usage.get('tokens_out', 0)}, cost ${report.usage.get('cost_usd', 0)}", ""]
    return "\n".join(out)


def _task_tag(task_id: str | None) -> str:
    return f" [{_e(task_id)}]" if task_id else ""


def _sentence_md(s: AnswerSentence) -> str:
    marks = [f"[{_e(c.evidence_id)}: {reports.markdown(c.evidence, details=False)}]"
             for c in s.citations] or [f"[{_e(c)}]" for c in s.cites] or ["[no citation]"]
    flag = "" if s.verified else f" **({_e(sentence_status(s))})**"
    return f"- {_e(s.text)} {' '.join(marks)}{flag}"


def _answer_md(report: QAReport) -> list[str]:
    out = [f"## {_t(report)('Answer')}", ""]
    if not report.sentences:
        out += ["The evidence found is not enough to answer this question; what was found "
                "is listed under Evidence.", ""]
    else:
        out += [_sentence_md(s) for s in report.sentences] + [""]
    if report.dropped:
        out += [f"## {_t(report)('Dropped: sentences their citations do not support')}", ""]
        out += [_sentence_md(s) for s in report.dropped] + [""]
    return out


def _where(item: EvidenceItem) -> str:
    if item.kind == "quote":
        return reports.markdown(item.evidence, details=False)
    if item.kind == "web" and item.section.startswith(("http://", "https://")):
        command = f"papermind add {item.section}".replace("`", "")  # a code span: shown as is
        return f"external: not in a stored paper (add it: `{command}`)"
    return _e(item.value) if item.value else "external: not in a stored paper"


def _tables_md(report: QAReport) -> list[str]:
    states = {o.task_id: o for o in report.outcomes}
    out = [f"## {_t(report)('Plan')}", "", "| task | question | tool | after | result |", "|---|---|---|---|---|"]
    for t in report.plan:
        o = states.get(t.id)
        result = f"{o.state}: {o.stop_reason}" if o else "-"
        out.append(f"| {_e(t.id)} | {_cell(t.question)} | {_e(t.tool)} | "
                   f"{_e(', '.join(t.depends_on) or '-')} | {_cell(result, 80)} |")
    out += ["", f"## {_t(report)('Search strategies')}", "", "| task | round | mode | why | query | years |",
            "|---|---|---|---|---|---|"]
    out += [f"| {_e(s.task_id)} | {s.round} | {_e(s.mode)} | {_cell(s.reason + (' ' + s.note if s.note else ''), 160)} "
            f"| {_cell(s.query, 100)} | {_years(s)} |" for s in report.strategies]
    out += ["", f"## {_t(report)('Evidence')}", "", "| id | task | source | where | quote |", "|---|---|---|---|---|"]
    out += [f"| {_e(e.id)} | {_e(e.task_id)} | {_cell(_source(e), 60)} | {_where(e)} "
            f"| {_cell(e.evidence.quote or e.evidence.matched_text)} |" for e in report.evidence]
    return [*out, ""]


def _values(report: QAReport) -> dict[str, Any]:
    return {"r": report, "source": _source, "years": _years,
            "by_id": {e.id: e for e in report.evidence}, "sentence_status": sentence_status,
            "demo_label": reports.DEMO_LABEL, "status_text": STATUS_TEXT[report.status]}


def to_html(report: QAReport) -> str:
    """A self-contained page; each citation is a ``.cite`` element with data attributes."""
    return template_env(PACKAGE).get_template(TEMPLATE).render(
        _values(report))


def to_html_body(report: QAReport) -> Markup:
    """The page's content only, for a layout around it (the web UI)."""
    template = template_env(PACKAGE).get_template(TEMPLATE)
    return reports.render_block(template, "content", **_values(report))


def to_terminal(console: Console, report: QAReport, job_id: str) -> None:
    """The CLI summary: status, each sentence with its citations, sources, disagreements."""
    print_demo_label(console, report)
    color = "red" if report.status == "insufficient_evidence" else "green"
    console.print(f"[{color}]{STATUS_TEXT[report.status]}[/]", highlight=False)
    for sentence in report.sentences:
        mark = "" if sentence.verified else f" [red]{escape(sentence_status(sentence))}[/]"
        cites = escape(" ".join(f"[{c}]" for c in sentence.cites))
        console.print(f"{escape(sentence.text)} [dim]{cites}[/]{mark}", highlight=False)
    for sentence in report.dropped:
        console.print(f"[yellow]dropped[/] (its citations do not support it: "
                      f"{escape(sentence_status(sentence))}): {escape(sentence.text)}",
                      highlight=False)
    _print_sources(console, report)
    for contradiction in report.contradictions:
        console.print(f"[yellow]disagreement[/] {contradiction.first} vs "
                      f"{contradiction.second}: {escape(contradiction.note)}", highlight=False)
    v = report.verification
    console.print(f"citations {v.total}: found {v.found}, supported {v.supported}; tokens "
                  f"{report.usage.get('tokens_in', 0)} in / {report.usage.get('tokens_out', 0)} "
                  "out", highlight=False)


def _print_sources(console: Console, report: QAReport) -> None:
    """The kept sentences' citations; with no answer, every evidence item found."""
    by_id = {e.id: e for e in report.evidence}
    cited = {c.evidence_id: c.evidence for s in report.sentences for c in s.citations}
    if not report.sentences:
        cited = {e.id: e.evidence for e in report.evidence}
    if cited:
        console.print("[bold]Sources[/]" if report.sentences else "[bold]Evidence found[/]")
    for evidence_id, evidence in cited.items():
        item = by_id.get(evidence_id)
        where = (item.title or item.paper_id[:12]) if item else "?"
        text = evidence.quote or evidence.matched_text
        console.print(f"  [{evidence_id}] {where}, {reports.text(evidence, details=False)}: "
                      f"\"{text[:200]}\"", highlight=False, markup=False)
