"""Headers, footers, page numbers and side stamps: out of the flow, kept on the page."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from papermind.ingest.layout import LaidOutPage

_PAGE_NUMBER = re.compile(r"^(?:page\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,6})\s*[-–—]?(?:\s+of\s+\d+)?$",
                          re.IGNORECASE)
_STAMP = re.compile(r"^arxiv:\s*\d{4}\.\d{4,5}|^arxiv:[a-z\-]+/\d{7}", re.IGNORECASE)
_VENUE_NOTE = re.compile(r"^(?:proceedings of|copyright|©|\(c\)|c\s?(?:19|20)\d\d\b|.{0,80}\b(?:19|20)\d\d "
                         r"association for computational linguistics)", re.IGNORECASE)
_TOP, _BOTTOM = 0.085, 0.915


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", text.lower()).strip()


def split_furniture(pages: Sequence[LaidOutPage]) -> None:
    """Move furniture lines from ``page.lines`` to ``page.furniture`` (with their kind)."""
    counts: Counter[str] = Counter()
    for page in pages:
        seen = {_shape(ln.text) for ln in page.lines if ln.box and _in_band(ln.box, page)}
        counts.update(seen)
    threshold = max(2, int(0.3 * len(pages)))
    for page in pages:
        keep = []
        for line in page.lines:
            kind = _kind(line.text, line.box, page, counts, threshold) if line.kind == "text" else line.kind
            if kind == "text":
                keep.append(line)
            else:
                line.kind = kind
                page.furniture.append(line)
        page.lines = keep


def _in_band(box: tuple[float, float, float, float], page: LaidOutPage) -> bool:
    return box[3] <= _TOP * page.height or box[1] >= _BOTTOM * page.height


def _kind(text: str, box: tuple[float, float, float, float] | None, page: LaidOutPage,
          counts: Counter[str], threshold: int) -> str:
    if box is None:
        return "text"
    if _STAMP.match(text) and (box[2] < 0.12 * page.width or box[0] > 0.88 * page.width):
        return "stamp"
    if box[2] < 0.07 * page.width or box[0] > 0.95 * page.width:
        return "stamp"
    near_edge = box[3] <= 0.1 * page.height or box[1] >= 0.9 * page.height
    if near_edge and _PAGE_NUMBER.match(text):
        return "page_number"
    if box[1] >= 0.86 * page.height and _VENUE_NOTE.match(text):
        return "footer"
    if _in_band(box, page) and counts[_shape(text)] >= threshold:
        return "header" if box[3] <= _TOP * page.height else "footer"
    return "text"
