"""Points of an analysis: from the reader's draft, as prompt text, and compared across rounds."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from papermind.domain import Evidence
from papermind.domain.reading import PointChange, ReadingPoint
from papermind.reports import status_label
from papermind.workflows.deep_reading.schemas import ReaderOutput

_QUOTE_MARKS = "\"'\u201c\u201d\u2018\u2019` "


def points_from_draft(draft: ReaderOutput, *, max_points: int,
                      max_quotes: int) -> tuple[list[ReadingPoint], list[str]]:
    """Numbered points (M, D, E, R) with unchecked citations, and notes on what was cut."""
    notes: list[str] = []
    points: list[ReadingPoint] = []

    def add(prefix: str, kind: str, text: str, lines: list[str], quote: str,
            **extra: object) -> None:
        if not text.strip():
            return
        number = sum(p.id.startswith(prefix) for p in points) + 1
        if kind != "experiment" and number > max_points:
            notes.append(f"reader gave more than {max_points} {kind} points; extra ones dropped")
            return
        points.append(ReadingPoint(id=f"{prefix}{number}", kind=kind, text=text.strip(),
                                   evidence=citations(lines, quote, max_quotes), **extra))

    for m in draft.method:
        add("M", "method", m.point, m.lines, m.quote)
    for d in draft.derivation:
        add("D", "derivation", d.states, d.lines, d.quote, follows_from=d.follows_from.strip(),
            symbols=[s.strip() for s in d.symbols if s.strip()])
    setup = draft.experiments
    lists = {"datasets": setup.datasets, "baselines": setup.baselines,
             "metrics": setup.metrics, "ablations": setup.ablations}
    lists = {k: [v.strip() for v in vs if v.strip()] for k, vs in lists.items()}
    if any(lists.values()):
        summary = "; ".join(f"{k}: {', '.join(v)}" for k, v in lists.items() if v)
        add("E", "experiment", summary, setup.lines, setup.quote, **lists)
    for r in draft.results:
        add("R", "result", r.finding, r.lines, r.quote, supports=r.supports.strip())
    return points, sorted(set(notes))


def citations(lines: list[str], quote: str, limit: int) -> list[Evidence]:
    """Up to ``limit`` cited line ranges (deduplicated); the quote goes with the first.

    A point with a quote but no line ids keeps the quote alone (grounded as a bare quote)."""
    cited = list(dict.fromkeys(c.strip().strip("[]()").strip() for c in lines if c.strip()))
    quote = quote.strip().strip(_QUOTE_MARKS).strip()
    if not cited:
        return [Evidence(quote=quote)] if len(quote) >= 8 else []
    return [Evidence(cited=c, quote=quote if n == 0 else "")
            for n, c in enumerate(cited[:limit])]


_ID = re.compile(r"(?<![A-Za-z])([MDER])\s*-?\s*(\d+)", re.IGNORECASE)


def point_id(raw: str) -> str:
    """'M1' from what a model wrote ('M1', '[m1]', 'M-1 (method)'); the raw text otherwise."""
    match = _ID.search(raw)
    return f"{match.group(1).upper()}{match.group(2)}" if match else raw.strip().upper()


def describe_points(points: list[ReadingPoint], *, status: bool) -> str:
    """Compact listing for prompts; with ``status`` each point and citation shows its check."""
    lines: list[str] = []
    for point in points:
        head = f"{point.id} ({point.kind})"
        if status:
            head += " [verified]" if point.verified else f" [NOT VERIFIED: {point.verdict}]"
        lines.append(f"{head}: {point_text(point)}")
        for e in point.evidence:
            quote = f' "{e.quote}"' if e.quote else ""
            mark = f" [{status_label(e)}]" if status else ""
            lines.append(f"  lines {e.cited or '-'}{quote}{mark}")
    return "\n".join(lines) if lines else "(no points)"


def point_text(point: ReadingPoint) -> str:
    """The point's statement with its kind-specific details."""
    text = point.text
    if point.follows_from:
        text += f" (follows from: {point.follows_from})"
    if point.symbols:
        text += f" (symbols: {'; '.join(point.symbols)})"
    if point.supports:
        text += f" (supports: {point.supports})"
    return text


def _norm(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def diff_points(before: list[ReadingPoint],
                after: list[ReadingPoint]) -> tuple[list[PointChange], int]:
    """Changes from ``before`` to ``after`` (matched by kind and text similarity) and kept count."""
    changes: list[PointChange] = []
    kept = 0
    unmatched = list(before)
    for new in after:
        old = _best_match(new, unmatched)
        if old is None:
            changes.append(PointChange(change="added", kind=new.kind, after=new.text,
                                       after_id=new.id))
            continue
        unmatched.remove(old)
        same_text = _norm(old.text) == _norm(new.text)
        same_quotes = [(e.cited, e.quote) for e in old.evidence] == [
            (e.cited, e.quote) for e in new.evidence]
        if same_text and same_quotes:
            kept += 1
            continue
        note = "citations replaced" if same_text else ("text and citations revised" if not same_quotes
                                                    else "text revised")
        changes.append(PointChange(change="revised", kind=new.kind, before=old.text,
                                   after=new.text, before_id=old.id, after_id=new.id, note=note))
    for old in unmatched:
        changes.append(PointChange(change="removed", kind=old.kind, before=old.text,
                                   before_id=old.id,
                                   note="was verified" if old.verified else "was unverified"))
    return changes, kept


def _best_match(new: ReadingPoint, candidates: list[ReadingPoint]) -> ReadingPoint | None:
    best, best_score = None, 0.5
    for old in candidates:
        if old.kind != new.kind:
            continue
        score = SequenceMatcher(None, _norm(old.text), _norm(new.text)).ratio()
        if score > best_score or (score == best_score and best is None and score >= 0.5):
            best, best_score = old, score
    return best
