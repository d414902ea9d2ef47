"""Line-cited evidence: materialise the lines a model cited and check its quote against them.

``LineCiter(locator).cite('3:12-14', quote)``:

- every cited span must name existing flow lines, else the evidence is unfound with the
  reason (the ids are listed) -- unless the quote, located in the paper without a
  non-cosmetic difference, gives the anchor instead (with a note naming the bad ids);
- the anchor covers the cited lines (several spans: the first to the last), and
  ``matched_text`` is their exact text, hyphenated line breaks joined;
- a quote must lie in or next to the cited lines (``NEAR_LINES`` either side); next to them
  the anchor grows to cover it; found elsewhere in the paper the anchor moves there, with a
  note; near them but worded differently the cited lines are kept, with a note; found
  nowhere, the evidence is not found (a fabricated quote is never rescued by its line ids).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from papermind.domain import Anchor, Evidence, LineRef, Paper
from papermind.grounding.alignment import Match
from papermind.grounding.line_ids import LineSpan, numbered, parse_cited
from papermind.grounding.locator import QuoteLocator
from papermind.grounding.text import split_ellipsis, strip_quote_marks

NEAR_LINES = 2
"""How many lines either side of the cited ones a quote may start or end on."""


class LineCiter:
    """Cites line ids of one paper; built once per paper on its QuoteLocator."""

    def __init__(self, locator: QuoteLocator) -> None:
        self.locator = locator
        self.index = locator.index
        self.paper: Paper = locator.paper
        self.position = {(line.page, line.n): i for i, line in enumerate(self.index.lines)}
        self._first_lines = [t.first_line for t in self.index.tokens]
        self._last_lines = [t.last_line for t in self.index.tokens]

    def numbered_text(self, lines: list[LineRef] | None = None) -> str:
        """The flow lines (or just ``lines``, in reading order) in the prompt form."""
        if lines is None:
            return numbered(self.index.lines)
        return numbered(self.index.lines, [self.position[(r.page, r.line)] for r in lines
                                           if (r.page, r.line) in self.position])

    def cite(self, cited: str, quote: str = "") -> Evidence:
        """Evidence for the line ids ``cited``, with ``quote`` checked against them."""
        base = Evidence(quote=quote, cited=cited)
        parsed = parse_cited(cited)
        if not parsed.spans:
            why = f"no line ids in '{cited}'" if cited.strip() else "no line ids cited"
            return self._by_quote(base, why)
        unknown = [s.label() for s in parsed.spans if not self._exists(s)]
        if unknown:
            return self._by_quote(base, "the paper has no line " + ", ".join(unknown))
        first = min(self.position[s.start] for s in parsed.spans)
        last = max(self.position[s.end] for s in parsed.spans)
        notes = [f"'{part}' is not a line id and was ignored" for part in parsed.unreadable]
        if len(parsed.spans) > 1:
            notes.append("several spans cited: the anchor covers the first to the last")
        lines = self._with_quote(first, last, quote, notes)
        if isinstance(lines, Evidence):
            return lines.model_copy(update={"cited": cited, "notes": [*notes, *lines.notes]})
        return base.model_copy(update={
            "anchor": self.anchor(*lines), "matched_text": self.text(*lines), "score": 1.0,
            "method": "lines", "notes": notes})

    def _by_quote(self, base: Evidence, why: str) -> Evidence:
        """Unusable ids: the quote's own location when code finds it cleanly, else unfound."""
        if strip_quote_marks(base.quote).strip():
            located = self.locator.locate(base.quote)
            if located.anchor is not None and not located.reasons:
                return located.model_copy(update={"cited": base.cited, "notes": [
                    *located.notes, f"{why}; the quote was found at {located.anchor.label()}, "
                    "so the anchor is there"]})
        return base.model_copy(update={"reasons": [why]})

    def anchor(self, first: int, last: int) -> Anchor:
        """Anchor over flow lines ``first``..``last`` (indices into the flow)."""
        head, tail = self.index.lines[first], self.index.lines[last]
        boxes = [line.box for line in self.index.lines[first:last + 1] if line.box is not None]
        return Anchor(paper_id=self.paper.id, page=head.page, line_start=head.n,
                      line_end=tail.n, page_end=tail.page if tail.page != head.page else None,
                      boxes=boxes)

    def text(self, first: int, last: int) -> str:
        """The exact text of flow lines ``first``..``last``, hyphenated breaks joined (a word
        split across the first or last line break is given whole)."""
        a = bisect_left(self._last_lines, first)  # words touching the lines, whole
        b = bisect_right(self._first_lines, last) - 1
        return self.index.span_text(a, b) if a <= b else ""

    def _exists(self, span: LineSpan) -> bool:
        return span.start in self.position and span.end in self.position

    def _with_quote(self, first: int, last: int, quote: str,
                    notes: list[str]) -> tuple[int, int] | Evidence:
        """The lines to anchor on given ``quote``, or the located evidence it moved to."""
        parts = split_ellipsis(strip_quote_marks(quote))
        if not parts:
            return first, last
        near = self._match_near(parts, first, last)
        if near is not None:
            lo, hi = min(first, near[0]), max(last, near[1])
            if (lo, hi) != (first, last):
                notes.append("the quote runs past the cited lines; the anchor covers it")
            return lo, hi
        elsewhere = self.locator.locate(quote)
        cited = self.anchor(first, last).label()
        if elsewhere.anchor is not None and not elsewhere.reasons:
            return elsewhere.model_copy(update={"notes": [
                *elsewhere.notes, f"the quote is not at the cited lines ({cited}) but at "
                f"{elsewhere.anchor.label()}; the anchor moved there"]})
        if elsewhere.anchor is not None and self._near(elsewhere.anchor, first, last):
            notes.append(f"the quote differs from the text at the cited lines ({cited}): "
                         + "; ".join(elsewhere.reasons) + "; the cited lines are kept")
            return first, last
        return Evidence(quote=quote, reasons=[
            f"the quote is not in the paper (not at or near the cited lines {cited}, nor "
            "elsewhere)"])

    def _near(self, anchor: Anchor, first: int, last: int) -> bool:
        start = self.position.get((anchor.page, anchor.line_start), -1)
        return first - NEAR_LINES <= start <= last + NEAR_LINES

    def _match_near(self, parts: list[str], first: int, last: int) -> tuple[int, int] | None:
        lo = max(0, first - NEAR_LINES)
        hi = min(len(self.index.lines) - 1, last + NEAR_LINES)
        after = bisect_left(self._first_lines, lo)
        before = bisect_right(self._first_lines, hi)
        matches: list[Match] = []
        for part in parts:
            match = self.locator.match(part, after, before)
            if match is None or match.problems:
                return None
            matches.append(match)
            after = match.last + 1
        tokens = self.index.tokens
        return tokens[matches[0].first].first_line, tokens[matches[-1].last].last_line
