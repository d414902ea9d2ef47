"""Line ids: how prompts show a paper's lines, and how code reads the ids a model cites.

The prompt form is cheap: a page marker line ``[p.3]`` once per page, then each flow line
prefixed with its per-page number and a space (``12 the line text``). A line id is
``PAGE:LINE`` (``3:12``); the marker gives the page, the prefix the line. Condensed contexts
pass only the lines they keep; the ids stay the original ones and a gap is shown as ``...``
(blank lines are not shown and are no gap).

``parse_cited`` is forgiving about what models write: ``3:12``, ``[3:12]``, ``3:12-14``,
``[3:12]-[3:14]``, ``3:40-4:2``, ``p. 3, l. 12-14``, ``page 3 line 12``, and lists of any of
these separated by commas, semicolons or 'and' (``3:12, 14-15``: more lines of page 3). It
returns spans, or the parts it could not read; a bare ``12, 14`` names no page and is not
read (callers that know which lines a model was shown may qualify it themselves).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from papermind.domain import Line

PAGE_MARKER = "[p.{page}]"
GAP = "..."

_L = r"l(?:ines?|l)?\.?\s*"
_P = r"\bp(?:ages?|g|p)?\.?\s*"
_CANONICAL = [  # written-out forms -> 'P:L'; a bare 'N, M' or 'N.M' stays unreadable
    (re.compile(rf"{_P}(\d+)\s*[,.]?\s*{_L}(\d+)", re.IGNORECASE), r"\1:\2"),
    (re.compile(rf"{_P}(\d+)\s*[,.:]\s*(\d+)", re.IGNORECASE), r"\1:\2"),
    (re.compile(rf"(\d+)\s*[,.]?\s*\b{_L}(\d+)", re.IGNORECASE), r"\1:\2"),
]
_DASH = r"\s*(?:-|\u2013|\u2014|to|through)\s*"
_SPAN = re.compile(rf"\[?\s*(\d+)\s*:\s*(\d+)\s*\]?(?:{_DASH}\[?\s*(?:(\d+)\s*:\s*)?(\d+)\s*\]?)?",
                   re.IGNORECASE)
_MORE_LINES = re.compile(r"(?:^|[,\s]+)(\d+)(?:\s*-\s*(\d+))?(?=\s*(?:,|$))")
_SPLIT = re.compile(r"\s*(?:;|\band\b|,(?=\s*\[?\s*\d+\s*:))\s*", re.IGNORECASE)

@dataclass(frozen=True, slots=True)
class LineSpan:
    """Lines ``(page, line)`` .. ``(page_end, line_end)`` inclusive, in reading order."""

    page: int
    line: int
    page_end: int
    line_end: int

    @property
    def start(self) -> tuple[int, int]:
        return (self.page, self.line)

    @property
    def end(self) -> tuple[int, int]:
        return (self.page_end, self.line_end)

    def label(self) -> str:
        """The canonical id form: ``3:12``, ``3:12-14`` or ``3:40-4:2``."""
        if self.start == self.end:
            return f"{self.page}:{self.line}"
        if self.page == self.page_end:
            return f"{self.page}:{self.line}-{self.line_end}"
        return f"{self.page}:{self.line}-{self.page_end}:{self.line_end}"


@dataclass(frozen=True, slots=True)
class ParsedCitation:
    """The spans read from a citation string, and the pieces that were not line ids."""

    spans: list[LineSpan]
    unreadable: list[str]


def numbered(lines: Sequence[Line], keep: Iterable[int] | None = None) -> str:
    """``lines`` (all flow lines of a paper, in reading order), or just those at indices
    ``keep``, in the prompt form: a ``[p.N]`` marker per page, ``n text`` per line, ``...``
    where lines with text were left out (so a condensed context never suggests adjacency).
    Blank lines (plain-text papers have them between paragraphs) are not shown and never
    make a gap."""
    shown = range(len(lines)) if keep is None else sorted(set(keep))
    out: list[str] = []
    page, previous = 0, -1
    for i in shown:
        line = lines[i]
        if not line.text.strip():
            continue
        if line.page != page:
            out.append(PAGE_MARKER.format(page=line.page))
            page = line.page
        if any(lines[k].text.strip() for k in range(previous + 1, i)):
            out.append(GAP)
        out.append(f"{line.n} {line.text}")
        previous = i
    return "\n".join(out)


def parse_cited(cited: str) -> ParsedCitation:
    """Spans in ``cited`` (see the module docstring for the forms read)."""
    spans: list[LineSpan] = []
    unreadable: list[str] = []
    text = cited.strip()
    for pattern, canonical in _CANONICAL:
        text = pattern.sub(canonical, text)
    for part in _SPLIT.split(text):
        part = part.strip().strip("()").strip()
        if not part:
            continue
        found = list(_SPAN.finditer(part))
        if not found:
            unreadable.append(part)
        spans.extend(_span(m) for m in found)
        if found:  # '3:12, 14-15': more lines of the page just named
            tail = part[found[-1].end():]
            page = spans[-1].page_end
            spans.extend(LineSpan(page, int(a), page, int(b or a))
                         for a, b in _MORE_LINES.findall(tail) if int(b or a) >= int(a))
    return ParsedCitation(spans, unreadable)


def _span(match: re.Match[str]) -> LineSpan:
    page, line = int(match.group(1)), int(match.group(2))
    if match.group(4) is None:
        return LineSpan(page, line, page, line)
    page_end = int(match.group(3)) if match.group(3) else page
    line_end = int(match.group(4))
    if (page_end, line_end) < (page, line):
        page, line, page_end, line_end = page_end, line_end, page, line
    return LineSpan(page, line, page_end, line_end)
