"""Points of an analysis: from the reader's draft, as prompt text, and compared across rounds."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from itertools import zip_longest

from papermind.domain import Evidence
from papermind.domain.reading import PointChange, ReadingPoint
from papermind.grounding.explanations import collapse_repeats, looks_like_junk
from papermind.reports import status_label
from papermind.workflows.deep_reading.schemas import ReaderOutput, SetupOut

_QUOTE_MARKS = "\"'\u201c\u201d\u2018\u2019` "


def points_from_draft(draft: ReaderOutput, *, max_points: int,
                      max_quotes: int) -> tuple[list[ReadingPoint], list[str]]:
    """Numbered points (M, D, E, R) with unchecked citations, and notes on what was cut."""
    notes: list[str] = []
    points: list[ReadingPoint] = []

    def add(prefix: str, kind: str, text: str, lines: list[str], quote: str,
            **extra: object) -> None:
        text = collapse_repeats(" ".join(text.split()))
        if not text or looks_like_junk(text):
            if text:
                notes.append(f"a {kind} point that looks like ids or JSON was dropped")
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
        add("D", "derivation", d.states, d.lines, d.quote,
            follows_from=clean_field(d.follows_from, "follows_from", notes),
            symbols=clean_items(d.symbols, "symbols", notes, symbol=True))
    setup = draft.experiments
    lists = {"datasets": setup.datasets, "baselines": setup.baselines,
             "metrics": setup.metrics, "ablations": setup.ablations}
    lists = {k: clean_items(vs, k, notes) for k, vs in lists.items()}
    if any(lists.values()):
        summary = "; ".join(f"{k}: {', '.join(v)}" for k, v in lists.items() if v)
        add("E", "experiment", summary, setup.lines, setup.quote, **lists)
    for r in draft.results:
        add("R", "result", r.finding, r.lines, r.quote,
            supports=clean_field(r.supports, "supports", notes))
    return points, sorted(set(notes))


_SYMBOL = re.compile(r"^[^:]{1,30}:\s*\S.{1,120}$")


def clean_field(value: str, name: str, notes: list[str]) -> str:
    """A model's free-text field with repeated sentences collapsed, or '' (with a warning)
    when it looks like ids or JSON."""
    text = collapse_repeats(" ".join(value.split()))
    if text and looks_like_junk(text):
        notes.append(f"field '{name}' looked like ids or JSON and was dropped")
        return ""
    return text


def clean_items(values: list[str], name: str, notes: list[str], *,
                symbol: bool = False) -> list[str]:
    """Distinct, sensible list items; a symbol must read 'name: meaning'. Items that fail
    are dropped with one warning per field."""
    kept: dict[str, str] = {}
    bad = 0
    for raw in values:
        item = " ".join(raw.split()).strip(" ;,")
        if not item:
            continue
        if looks_like_junk(item) or (symbol and not _SYMBOL.match(item)) or len(item) > 160:
            bad += 1
            continue
        kept.setdefault(_norm(item), item)
    if bad:
        notes.append(f"field '{name}': {bad} item(s) dropped (not "
                     + ("'symbol: meaning'" if symbol else "a plain name or phrase") + ")")
    return list(kept.values())


def merge_drafts(drafts: list[ReaderOutput]) -> ReaderOutput:
    """One analysis from the analyses of several parts of a paper: points taken in turn
    from each part (so every part is represented within the caps), setups united."""
    def interleave(lists: list[list[object]]) -> list[object]:
        """Items in turn from each part; the same statement from two parts once."""
        seen: set[str] = set()
        out = []
        for item in (x for group in zip_longest(*lists) for x in group if x is not None):
            key = _norm(str(next(iter(item.model_dump().values()))))  # type: ignore[attr-defined]
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out
    setups = [d.experiments for d in drafts]
    lines = next((s.lines for s in setups if s.lines), [])
    quote = next((s.quote for s in setups if s.lines), "")
    setup = SetupOut(**{k: [v for s in setups for v in getattr(s, k)]
                        for k in ("datasets", "baselines", "metrics", "ablations")},
                     lines=lines, quote=quote)
    return ReaderOutput.model_validate({
        "method": interleave([list(d.method) for d in drafts]),
        "derivation": interleave([list(d.derivation) for d in drafts]),
        "results": interleave([list(d.results) for d in drafts]),
        "experiments": setup})


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
