"""The checker's deterministic half: citing, point verdicts, credibility and feedback.

Code materialises every cited line range (``Grounder.cite``) and runs its support checks;
the shared support judge then asks the checker model whether the cited text supports each
point. A point is verified only when a citation was found AND the point is supported, and
credibility comes from support, never from found alone.
"""

from __future__ import annotations

from papermind.domain import Anchor, Evidence, LineRef, Paper, Support
from papermind.domain.reading import Credibility, ReadingPoint, Verdict
from papermind.grounding.paper_numbers import number_findings
from papermind.grounding.table_claims import claim_findings
from papermind.reports import status_label
from papermind.workflows.deep_reading.extractive import line_label
from papermind.workflows.deep_reading.points import point_text
from papermind.workflows.ports import Grounder
from papermind.workflows.support_judge import SupportItem, claim_support

MEDIUM_SHARE = 0.5
"""Share of points verified (found AND supported) needed for medium; high needs them all."""


def cite_points(points: list[ReadingPoint], paper: Paper,
                grounder: Grounder) -> list[ReadingPoint]:
    """Points with every citation materialised and code-checked against the point's text."""
    return [p.model_copy(update={"evidence": [_cite(grounder, paper, e, point_text(p))
                                              for e in p.evidence]}) for p in points]


def _cite(grounder: Grounder, paper: Paper, evidence: Evidence, claim: str) -> Evidence:
    if evidence.cited:
        return grounder.cite(paper, evidence.cited, evidence.quote, claim=claim)
    located = grounder.ground(paper, evidence.quote, claim=claim)
    return located.model_copy(update={"claim": claim, "notes": [
        *located.notes, "no line ids cited: located by its quote"]})


def sentence_evidence(grounder: Grounder, paper: Paper, text: str,
                      lines: tuple[LineRef, ...]) -> Evidence:
    """A sentence code took from the paper, cited by its lines like any citation."""
    return grounder.cite(paper, line_label(lines), text) if lines else Evidence(quote=text)


def with_table_checks(points: list[ReadingPoint], paper: Paper) -> list[ReadingPoint]:
    """Extracted result points whose sentence states a number no cell of its table holds,
    or a comparison its table shows the other way: contradicted by code, with the reason."""
    if not any(p.source == "extracted" and p.kind == "result" for p in points):
        return points
    conflicts = [(f.sentence_anchor, f"the text states {f.check.stated}, which no cell of "
                  "its table holds" + (f" ({f.check.note})" if f.check.note else ""))
                 for f in number_findings(paper)]
    conflicts += [(f.sentence_anchor, f"Table {f.table_number} shows {f.winner} behind "
                   f"{f.loser} ({'; '.join(f.columns)})") for f in claim_findings(paper)]
    out = []
    for point in points:
        if point.source == "extracted" and point.kind == "result":
            point = point.model_copy(update={"evidence": [
                _with_conflicts(e, conflicts) for e in point.evidence]})
        out.append(point)
    return out


def _with_conflicts(evidence: Evidence, conflicts: list[tuple[Anchor, str]]) -> Evidence:
    anchor = evidence.anchor
    if anchor is None:
        return evidence
    reasons = [why for at, why in conflicts if _overlaps(anchor, at)]
    if not reasons:
        return evidence
    return evidence.with_support(Support(verdict="contradicted", by="code",
                                         reason="; ".join(dict.fromkeys(reasons))))


def _overlaps(a: Anchor, b: Anchor) -> bool:
    def span(x: Anchor) -> tuple[tuple[int, int], tuple[int, int]]:
        return (x.page, x.line_start), (x.page_end or x.page, x.line_end)
    (a0, a1), (b0, b1) = span(a), span(b)
    return a0 <= b1 and b0 <= a1


def support_items(points: list[ReadingPoint]) -> list[SupportItem]:
    """One claim per point: the point's text against all its cited lines."""
    return [SupportItem(point_text(p), tuple(p.evidence), key=p.id) for p in points]


def with_verdicts(points: list[ReadingPoint], items: list[SupportItem]) -> list[ReadingPoint]:
    """Points with their judged evidence, combined verdict, reason and ``verified``."""
    return [_judged(p, list(item.evidence)) for p, item in zip(points, items, strict=True)]


EXTRACTED_NOTE = "the paper's own sentences at these lines, chosen by code"
"""Why an extracted point is verified: what 'the claim restates its lines' means for it."""


def _judged(point: ReadingPoint, evidence: list[Evidence]) -> ReadingPoint:
    verdict: Verdict
    found = [e for e in evidence if e.found]
    if not evidence:
        verdict, note, by = "not_found", "no lines cited", "code"
    elif not found:
        verdict, by = "not_found", "code"
        note = "; ".join(r for e in evidence for r in e.reasons) or "cited lines not found"
    else:
        verdict = claim_support(found)
        deciding = next((e for e in found if e.support.verdict == verdict), found[0])
        note, by = deciding.support.reason, deciding.support.by
        if point.source == "extracted" and verdict == "supported" and by == "code":
            note = EXTRACTED_NOTE
    return point.model_copy(update={"evidence": evidence, "verdict": verdict,
                                    "verdict_note": note, "verdict_by": by,
                                    "verified": bool(found) and verdict == "supported"})


def credibility(points: list[ReadingPoint]) -> tuple[Credibility, str]:
    """From support: high when every point is verified, medium when at least half are and
    none is contradicted, low otherwise."""
    if not points:
        return "low", "no points"
    verified = sum(p.verified for p in points)
    contradicted = sum(p.verdict == "contradicted" for p in points)
    share = verified / len(points)
    reason = f"{verified} of {len(points)} points verified (found and supported)"
    if contradicted:
        reason += f", {contradicted} contradicted by their cited text"
    if verified == len(points):
        return "high", reason
    return ("medium" if share >= MEDIUM_SHARE and not contradicted else "low"), reason


def with_checker_rating(level: Credibility, reason: str,
                        rating: Credibility | None) -> tuple[Credibility, str]:
    """The code's level, lowered (never raised) to the checker's own overall rating, which
    it may write in any language ('[可信度: 低]')."""
    order: tuple[Credibility, ...] = ("low", "medium", "high")
    if rating is None or order.index(rating) >= order.index(level):
        return level, reason
    return rating, f"{reason}; the checker rates it {rating}"


def compose_feedback(points: list[ReadingPoint], level: Credibility, reason: str) -> str:
    """What the reader is told to fix in a rewrite: each point not verified, and why."""
    lines = [f"Overall credibility: {level.upper()} ({reason})."]
    groups: list[tuple[str, list[ReadingPoint]]] = [
        ("Points whose cited lines do NOT EXIST or were not found (cite real line ids "
         "from the numbered paper, or drop the point):",
         [p for p in points if p.verdict == "not_found"]),
        ("Points CONTRADICTED by the text of their cited lines (correct the point, or cite "
         "the lines that say it):", [p for p in points if p.verdict == "contradicted"]),
        ("Points NOT SUPPORTED by their cited lines (the lines say something else or too "
         "little; cite the lines that say it, or drop the point):",
         [p for p in points if p.verdict == "not_enough"]),
        ("Points whose support could not be checked:",
         [p for p in points if p.verdict == "unchecked"]),
    ]
    for heading, group in groups:
        if group:
            lines.append(heading)
            lines += [_feedback_line(p) for p in group]
    return "\n".join(lines)


def _feedback_line(point: ReadingPoint) -> str:
    cited = ", ".join(" ".join(filter(None, [e.cited, f'"{e.quote}"' if e.quote else ""]))
                      for e in point.evidence) or "nothing"
    why = point.verdict_note or "; ".join(status_label(e) for e in point.evidence)
    who = f" ({point.verdict_by})" if point.verdict_by else ""
    return f"- {point.id} cites {cited}: {why or 'no reason given'}{who}"
