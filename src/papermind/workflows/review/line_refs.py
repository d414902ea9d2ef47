"""Read line ids a weak model wrote without their page, against the lines it was shown.

Models see numbered lines under ``[p.N]`` markers; small ones often cite just the numbers
("12-14", "[p.3] 12", "line 1930"). When the ids as written do not name lines that model was
shown, and every bare number names exactly one page among them, the page is filled in
("3:12-14"; "12, 14" is then lines 12 and 14, not page 12 line 14); anything else is left
as written, so ``Grounder.cite`` reports it unfound with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.domain import LineRef
from papermind.grounding import parse_cited

_BARE = re.compile(r"^\[?\s*(?:p(?:age)?\.?\s*(\d+)\s*\]?\s*[,:]?\s*)?(?:l(?:ines?|l)?\.?\s*)?"
                   r"(\d+)(?:\s*(?:-|\u2013|to)\s*(\d+))?\s*\]?$", re.IGNORECASE)
_PARTS = re.compile(r"\s*(?:[,;]|\band\b)\s*", re.IGNORECASE)


def qualify(cited: str, shown: Sequence[LineRef]) -> str:
    """``cited`` with the page filled in for bare line numbers, when ``shown`` makes it
    unambiguous; otherwise ``cited`` unchanged."""
    seen = {(r.page, r.line) for r in shown}
    spans_as_written = parse_cited(cited).spans
    if not cited.strip() or (spans_as_written and all(s.start in seen for s in spans_as_written)):
        return cited
    spans: list[str] = []
    for part in (p for p in _PARTS.split(cited.strip()) if p):
        match = _BARE.match(part)
        if match is None:
            return cited
        page, first, last = match.groups()
        if page is None:
            pages = {r.page for r in shown if r.line == int(first)}
            if len(pages) != 1:
                return cited
            page = str(pages.pop())
        if (int(page), int(first)) not in seen:
            return cited
        spans.append(f"{page}:{first}" + (f"-{last}" if last else ""))
    return ", ".join(spans)
