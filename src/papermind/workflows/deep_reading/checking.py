"""The checker's deterministic half: grounding, verdict parsing, credibility and feedback.

Code locates every quote; the checker model only judges whether the text that code found
supports each point. Its verdicts and credibility are parsed leniently, and credibility is
capped by what grounding found, so a model cannot vouch for quotes that do not exist.
"""

from __future__ import annotations

import re

from papermind.domain import Paper
from papermind.domain.reading import Credibility, ReadingPoint, Verdict
from papermind.workflows.deep_reading.points import point_id, point_text
from papermind.workflows.deep_reading.schemas import CheckerOutput, JudgementOut
from papermind.workflows.ports import Grounder

_LEVELS: tuple[Credibility, ...] = ("low", "medium", "high")
_VERDICTS: dict[str, Verdict] = {"supported": "supported", "supports": "supported",
                                 "yes": "supported", "partial": "partial",
                                 "partially": "partial", "unsupported": "unsupported",
                                 "not supported": "unsupported", "no": "unsupported"}


def ground_points(points: list[ReadingPoint], paper: Paper,
                  grounder: Grounder) -> list[ReadingPoint]:
    """Points with every quote located (and claim-checked against the point's text)."""
    return [p.model_copy(update={"evidence": [grounder.ground(paper, e.quote, claim=p.text)
                                              for e in p.evidence]}) for p in points]


def located(point: ReadingPoint) -> bool:
    return any(e.anchor is not None for e in point.evidence)


def checker_listing(points: list[ReadingPoint]) -> str:
    """Points with the paper's text at each located quote (never the model's own quote)."""
    blocks: list[str] = []
    for point in points:
        lines = [f"[{point.id}] POINT: {point_text(point)}"]
        for e in point.evidence:
            if e.anchor is None:
                continue
            note = f" (check failed: {'; '.join(e.reasons)})" if not e.verified and e.reasons else ""
            lines.append(f'  EVIDENCE {e.anchor.label()}: "{e.matched_text}"{note}')
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def parse_verdict(raw: str) -> Verdict | None:
    text = re.sub(r"[^a-z ]", " ", raw.lower()).strip()
    if text in _VERDICTS:
        return _VERDICTS[text]
    for word in ("unsupported", "not supported", "partial", "supported"):
        if word in text:
            return _VERDICTS[word]
    return None


def apply_judgements(points: list[ReadingPoint],
                     output: CheckerOutput | None) -> tuple[list[ReadingPoint], list[str]]:
    """Verdicts per point: code's for unlocated points, the model's for the rest."""
    notes: list[str] = []
    given: dict[str, JudgementOut] = {}
    for j in output.judgements if output is not None else []:
        given.setdefault(point_id(j.id), j)
    judged: list[ReadingPoint] = []
    for point in points:
        verdict: Verdict
        if not located(point):
            verdict, note = "unsupported", "none of its quotes was found in the paper"
        elif point.id in given:
            parsed = parse_verdict(given[point.id].verdict)
            if parsed is None:
                notes.append(f"{point.id}: checker verdict {given[point.id].verdict!r} unreadable")
            verdict, note = parsed or "not_checked", given[point.id].reason.strip()
        else:
            verdict, note = "not_checked", "the checker gave no verdict"
        verified = any(e.verified for e in point.evidence) and verdict != "unsupported"
        judged.append(point.model_copy(update={"verdict": verdict, "verdict_note": note,
                                               "verified": verified}))
    return judged, notes


def parse_credibility(raw: str) -> Credibility | None:
    """'high' / 'medium' / 'low' from a field or a final line; None when not exactly one."""
    words = set(re.findall(r"\b(high|medium|low)\b", raw.lower()))
    return words.pop() if len(words) == 1 else None


def overall_credibility(raw: str | None,
                        points: list[ReadingPoint]) -> tuple[Credibility, list[str]]:
    """The model's credibility (medium if unreadable), capped by the grounding results."""
    notes: list[str] = []
    level = parse_credibility(raw) if raw is not None else None
    if level is None:
        notes.append(f"checker credibility {raw!r} unreadable: medium assumed" if raw is not None
                     else "no checker judgement: medium assumed")
        level = "medium"
    verified = sum(p.verified for p in points)
    quotes = [e for p in points for e in p.evidence]
    cap: Credibility = "high"
    reason = ""
    if not points or verified / len(points) < 0.5:
        cap = "low"
        reason = f"only {verified} of {len(points)} points verified"
    elif verified < len(points) or any(not e.verified for e in quotes):
        cap = "medium"
        reason = "some points or quotes are unverified"
    if _LEVELS.index(cap) < _LEVELS.index(level):
        notes.append(f"credibility capped from {level} to {cap}: {reason}")
        level = cap
    return level, notes


def compose_feedback(points: list[ReadingPoint], credibility: Credibility, advice: str) -> str:
    """What the reader is told to fix in a rewrite."""
    lines = [f"Overall credibility: {credibility.upper()}."]
    missing = [(p.id, e.quote) for p in points for e in p.evidence if e.anchor is None]
    if missing:
        lines.append("Quotes NOT FOUND in the paper (fabricated or altered; replace each with a "
                     "sentence copied exactly, or drop the point):")
        lines += [f'- {pid}: "{quote}"' for pid, quote in missing]
    failed = [(p.id, e) for p in points for e in p.evidence
              if e.anchor is not None and not e.verified]
    if failed:
        lines.append("Quotes found but not backing their point (fix the point or pick a "
                     "quote that says it):")
        lines += [f'- {pid}: "{e.quote}" ({"; ".join(e.reasons) or "check failed"})'
                  for pid, e in failed]
    bare = [p.id for p in points if not p.evidence]
    if bare:
        lines.append("Points without any quote: " + ", ".join(bare))
    for verdict in ("unsupported", "partial"):
        judged = [p for p in points if p.verdict == verdict and p.evidence]
        if judged:
            lines.append(f"Points judged {verdict}:")
            lines += [f"- {p.id}: {p.verdict_note or 'no reason given'}" for p in judged]
    if advice.strip():
        lines.append(f"Checker's advice: {advice.strip()}")
    return "\n".join(lines)
