"""Render a ReviewReport as JSON, Markdown and a self-contained HTML page."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from papermind.domain.review import ReportComment, ReviewReport

_LABELS = {"accept": "accept", "minor_revision": "minor revision",
           "major_revision": "major revision", "reject": "reject"}


def to_json(report: ReviewReport) -> dict[str, Any]:
    """JSON form (every evidence item carries quote, verified and anchor)."""
    return report.model_dump(mode="json")


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _comment_line(c: ReportComment) -> str:
    mark = c.location if c.verified else "UNVERIFIED"
    quote = f" — “{c.quote}”" if c.quote else ""
    refs = "".join(f" [ref {r.cited}: {'ok' if r.resolved else 'UNVERIFIED'}]" for r in c.references)
    about = f" (on {c.reply_to})" if c.reply_to else ""
    return (f"- `{c.message_id}` **{c.kind}**{about} [{c.target}] {c.content} "
            f"(confidence {c.confidence:.2f}, weight {c.weight:.2f}; {mark}){quote}{refs}")


def to_markdown(report: ReviewReport) -> str:
    """Markdown report; anchors as 'p. X, l. Y-Z', unverified items marked UNVERIFIED."""
    out = [f"# Pre-review: {report.title}", "", f"> {report.disclaimer}"]
    if report.demo_quality:
        out.append("> **demo quality: bundled local model** — configure a real endpoint for useful reviews.")
    if report.findings:
        out += ["", "## Hidden-text findings from ingestion", ""]
        out += [f"- p. {f.page}: {f.kind}: “{f.text}” ({f.reason})" for f in report.findings]
    rec = _LABELS.get(report.recommendation or "", "none")
    out += ["", "## Recommendation", "",
            f"**{rec}** (confidence {report.recommendation_confidence:.2f}) after "
            f"{report.rounds} adversarial round(s). Panel: {', '.join(report.panel)}."]
    if report.editor_summary:
        out += ["", f"Editor: {report.editor_summary}"]
    out += ["", "## Scores", "", "| reviewer | aspect | original (frozen) | final | change |",
            "|---|---|---|---|---|"]
    out += [f"| {s.reviewer} | {s.aspect} | {s.original:g} | {s.final:g} | {_cell(s.change or '-')} |"
            for s in report.scores]
    out += ["", "## Who said what", ""]
    for sender in dict.fromkeys(c.sender for c in report.comments):
        out += [f"### {sender}", ""] + [_comment_line(c) for c in report.comments
                                        if c.sender == sender] + [""]
    out += _settled(report) + _plan(report) + _unverified(report) + _metrics(report)
    out += _usage(report)
    return "\n".join(out).rstrip() + "\n"


def _settled(report: ReviewReport) -> list[str]:
    verdicts = {a.disagreement_id: a for a in report.arbitrations}
    out = ["## Disagreements and how they were settled", ""]
    for d in report.disagreements:
        a = verdicts.get(d.id)
        out.append(f"- {d.id} ({d.kind}, round {d.round}): {d.summary} → "
                   + (f"**{a.verdict}**: {a.reason}" if a else "not arbitrated"))
    for change in report.score_changes:
        status = "accepted" if change.accepted else f"REJECTED ({change.rejection})"
        out.append(f"- score change {change.reviewer}: {change.label()} — {status}")
    return out + ([] if len(out) > 2 else ["- none"]) + [""]


def _plan(report: ReviewReport) -> list[str]:
    out = ["## Prioritised revision plan", ""]
    for item in report.revision_plan:
        where = "; ".join(item.locations) or "UNVERIFIED"
        out.append(f"{item.priority}. {item.action} (addresses {', '.join(item.addresses) or '-'}; {where})")
    return out + ([] if report.revision_plan else ["- none"]) + [""]


def _unverified(report: ReviewReport) -> list[str]:
    out = ["## Unverified quotes and references", ""]
    out += [f"- UNVERIFIED {u.kind} in `{u.message_id}` ({u.sender}): “{u.text}” — {u.reason}"
            for u in report.unverified]
    return out + ([] if report.unverified else ["- none"]) + [""]


def _metrics(report: ReviewReport) -> list[str]:
    m = report.metrics
    return ["## Metrics", "",
            f"- independence: {m.independence:.2f} (issue overlap {m.issue_overlap:.2f})",
            f"- adversarial coverage: {m.claims_attacked}/{m.positive_claims} positive claims "
            f"attacked ({m.attack_coverage:.2f}); {m.attacks_tied}/{m.attacks} attacks tied to "
            f"an excerpt ({m.attacks_tied_share:.2f})",
            f"- traceability: {m.comments_traceable}/{m.comments} comments map to a message and "
            f"a verified anchor ({m.traceability:.2f})",
            f"- verification: {report.verification.get('verified', 0)}/"
            f"{report.verification.get('total', 0)} comments verified", ""]


def _usage(report: ReviewReport) -> list[str]:
    u = report.usage
    out = ["## Usage and cost", "",
           f"- tokens in {u.get('tokens_in', 0)}, out {u.get('tokens_out', 0)}, "
           f"cost ${float(u.get('cost_usd', 0.0)):.4f}"]
    out += [f"- {role}: {model}" for role, model in report.models.items()]
    out += ["", "## History", ""]
    out += [f"- {h.get('node')}: {h.get('summary', '')}" for h in report.history]
    if report.signoff:
        out += ["", "## Sign-off", "", f"- {report.signoff}"]
    return out


@cache
def _env() -> Environment:
    return Environment(loader=PackageLoader("papermind.workflows.review", "templates"),
                       autoescape=select_autoescape(["html", "j2"]), trim_blocks=True,
                       lstrip_blocks=True)


def to_html(report: ReviewReport) -> str:
    """Self-contained HTML; every citation is a `.cite` element with data-page/line attributes."""
    return _env().get_template("report.html.j2").render(r=report, labels=_LABELS)
