"""Plain text and Markdown input: lines numbered as given (blank lines count), no boxes."""

from __future__ import annotations

import re

from papermind.ingest.layout import FlowLine, LaidOutPage
from papermind.ingest.normalize import clean_line

_MD_HEADING = re.compile(r"^(#{1,6})\s+\S")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _markdown_levels(lines: list[FlowLine]) -> None:
    """Set heading levels; a lone leading '# Title' is the title, so the rest move up one."""
    raw_levels = [ln.heading_level for ln in lines if ln.heading_level]
    if raw_levels and raw_levels[0] == 1 and raw_levels.count(1) == 1 and len(raw_levels) > 1:
        first = next(ln for ln in lines if ln.heading_level)
        first.heading_level = 0
        for line in lines:
            if line.heading_level:
                line.heading_level = max(1, line.heading_level - 1)


def text_pages(text: str, *, markdown: bool) -> list[LaidOutPage]:
    """Pages split at form feeds; every source line becomes a numbered line."""
    pages: list[LaidOutPage] = []
    all_lines: list[FlowLine] = []
    for number, chunk in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\f"), 1):
        page = LaidOutPage(number=number)
        blank = True
        in_fence = False
        for raw in chunk.split("\n"):
            cleaned = clean_line(raw)
            line = FlowLine(page=number, text=cleaned, starts_block=blank)
            if markdown:
                if _FENCE.match(raw):
                    in_fence = not in_fence
                heading = _MD_HEADING.match(cleaned)
                if heading and not in_fence:
                    line.heading_level = len(heading.group(1))
            page.lines.append(line)
            blank = not cleaned
        pages.append(page)
        all_lines.extend(page.lines)
    if markdown:
        _markdown_levels(all_lines)
    if pages and len(pages) > 1 and not any(ln.text for ln in pages[-1].lines):
        pages.pop()
    return pages
