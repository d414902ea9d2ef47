"""A ReadingReport as JSON, Markdown and a self-contained HTML page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from papermind import reports
from papermind.domain.reading import ReadingPoint, ReadingReport

SECTIONS = (("method", "Method principle"), ("derivation", "Math derivation, step by step"),
            ("experiment", "Experiment design"), ("result", "Results and what they support"))
_env = reports.install(Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(["html", "j2"]), trim_blocks=True, lstrip_blocks=True))


def to_dict(report: ReadingReport) -> dict[str, Any]:
    """JSON-ready dict; every evidence item in the one evidence JSON shape."""
    data = report.model_dump(mode="json")
    for point, dumped in zip(report.points, data["points"], strict=True):
        dumped["evidence"] = [reports.evidence_json(e) for e in point.evidence]
        dumped["status"] = point_status(point)
    data["verification"] = reports.summary_json(report.evidence())
    return data


def to_json(report: ReadingReport) -> str:
    return json.dumps(to_dict(report), ensure_ascii=False, indent=2)


def point_status(p: ReadingPoint) -> str:
    """'verified' only for a point found AND supported; otherwise what holds."""
    if p.verified:
        return "verified"
    if p.verdict == "not_found":
        return "NOT FOUND"
    return "found · support unchecked" if p.verdict == "unchecked" else \
        f"found · {p.verdict.replace('_', ' ')}"


def _point_md(p: ReadingPoint) -> list[str]:
    out = [f"### {p.id} [{point_status(p)}]", "", p.text, ""]
    details = [("Follows from", p.follows_from), ("Symbols", "; ".join(p.symbols)),
               ("Datasets", ", ".join(p.datasets)), ("Baselines", ", ".join(p.baselines)),
               ("Metrics", ", ".join(p.metrics)), ("Ablations", ", ".join(p.ablations)),
               ("Supports", p.supports)]
    out += [f"- **{name}:** {value}" for name, value in details if value]
    out += [f"- {reports.markdown(e)}" for e in p.evidence] or ["- (no lines cited)"]
    if p.verdict_note:
        out.append(f"- **Why ({p.verdict_by or 'code'}):** {p.verdict_note}")
    return [*out, ""]


def to_markdown(report: ReadingReport) -> str:
    """The report as Markdown: each citation through the one renderer (anchor, status)."""
    v = report.verification
    out = [f"# Deep reading: {report.title or report.paper_id}", ""]
    if report.demo_quality:
        out += [f"> **{reports.DEMO_LABEL}**: answers come from a small offline model; configure an "
                "endpoint for real quality.", ""]
    out += [f"- Paper: `{report.paper_id}`", f"- Overall credibility: **{report.credibility.upper()}**",
            f"- Citations: {v.total}; found {v.found}; verified (found and supported) "
            f"{v.verified}; contradicted {v.contradicted}; not enough {v.not_enough}; "
            f"unchecked {v.unchecked}",
            f"- Rewrites: {report.rewrites}", ""]
    for kind, heading in SECTIONS:
        points = [p for p in report.points if p.kind == kind]
        out += [f"## {heading}", ""] + ([line for p in points for line in _point_md(p)]
                                         or ["(none)", ""])
    out += _questions_md(report) + _checks_md(report) + _context_md(report)
    out += _usage_md(report) + _history_md(report)
    if report.warnings:
        out += ["## Warnings", ""] + [f"- {w}" for w in report.warnings] + [""]
    return "\n".join(out).rstrip() + "\n"


def _questions_md(report: ReadingReport) -> list[str]:
    out = ["## Questions to think further", ""]
    out += [f"{n}. {q.text} (builds on {', '.join(q.builds_on)})" + (f" - {q.why}" if q.why else "")
            for n, q in enumerate(report.questions, start=1)] or ["(none)"]
    if report.dropped_questions:
        out += ["", "Dropped questions:"]
        out += [f"- {d.text} ({d.reason})" for d in report.dropped_questions]
    return [*out, ""]


def _checks_md(report: ReadingReport) -> list[str]:
    out = ["## Checks and rewrites", "", "| round | credibility | points found | points "
           "verified | citations found | citations verified | notes |",
           "|---|---|---|---|---|---|---|"]
    out += [f"| {r.round} | {r.credibility} | {r.found_points}/{r.points} | "
            f"{r.verified_points}/{r.points} | {r.found_quotes}/{r.quotes} | "
            f"{r.verified_quotes}/{r.quotes} | {'; '.join(r.notes) or '-'} |"
            for r in report.rounds]
    for rev in report.revisions:
        out += ["", f"### {rev.summary()} (credibility before: {rev.credibility_before})", "",
                "Feedback given to the reader:", ""]
        out += [f"> {line}" for line in rev.feedback.splitlines()] + [""]
        for c in rev.changes:
            ids = f"{c.before_id or '-'} -> {c.after_id or '-'}"
            text = c.after if c.change == "added" else c.before
            more = f" => {c.after}" if c.change == "revised" and c.after != c.before else ""
            out.append(f"- {c.change} {c.kind} ({ids}): {text}{more}"
                       + (f" [{c.note}]" if c.note else ""))
    return [*out, ""]


def _context_md(report: ReadingReport) -> list[str]:
    c = report.context
    head = (f"Condensed (extractive) from {c.paper_tokens} to {c.context_tokens} tokens, budget "
            f"{c.budget_tokens}." if c.condensed
            else f"Full paper given to the reader ({c.paper_tokens} tokens).")
    out = ["## What the reader saw", "", head, ""] + [f"- {n}" for n in c.notes]
    if c.condensed:
        out += ["", "| section | tokens kept | sentences kept |", "|---|---|---|"]
        out += [f"| {s.title} | {'omitted' if s.omitted else f'{s.tokens_kept}/{s.tokens_full}'}"
                f" | {s.sentences_kept}/{s.sentences_full} |" for s in c.sections]
    return [*out, ""]


def _usage_md(report: ReadingReport) -> list[str]:
    u = report.usage
    out = ["## Models and token usage", ""]
    out += [f"- {role}: `{model}`" for role, model in report.models.items()]
    out += [f"- total: {u.tokens_in} in, {u.tokens_out} out, ${u.cost_usd:.4f}", "",
            "| node | calls | tokens in | tokens out |", "|---|---|---|---|"]
    out += [f"| {n} | {x.calls} | {x.tokens_in} | {x.tokens_out} |" for n, x in u.by_node.items()]
    return [*out, ""]


def _history_md(report: ReadingReport) -> list[str]:
    out = ["## History", "", "| node | started | finished | summary |", "|---|---|---|---|"]
    out += [f"| {h.node} | {h.started} | {h.finished} | {h.summary} |" for h in report.history]
    return [*out, ""]


def to_html(report: ReadingReport) -> str:
    """A self-contained page; every citation is a ``.cite`` element with data-* anchors."""
    template = _env.get_template("reading_report.html.j2")
    return template.render(r=report, sections=SECTIONS, demo_label=reports.DEMO_LABEL,
                           point_status=point_status)

