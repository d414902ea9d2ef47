"""Tables of text and Markdown input: '|'-delimited rows next to a 'Table N' caption.

Text extracted from PDFs as Markdown (the ICLR bench papers, pymupdf4llm output) prints a
table as pipe rows with a ``|---|`` rule under the header. The block of pipe rows that starts
within a few lines after the caption (or ends within a few lines before it) becomes the
table; the rows above the rule are its header. Cells keep their text; no boxes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.domain.paper import Caption, LineRef, Table, TableCell
from papermind.ingest.layout import FlowLine, LaidOutPage

NEAR = 6
"""Lines allowed between a caption and its table's first (or last) row."""
GAP = 2
"""Blank lines allowed inside a table (extractors part a table's row groups with them)."""
_RULE = re.compile(r"^\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$")


def pipe_tables(pages: Sequence[LaidOutPage], captions: Sequence[Caption]) -> list[Table]:
    """One Table per table caption with a block of pipe rows beside it."""
    by_page = {p.number: p.lines for p in pages}
    tables: list[Table] = []
    taken: set[tuple[int, int]] = set()
    for caption in captions:
        if caption.kind != "table" or not caption.segments:
            continue
        page = caption.segments[0].page
        lines = by_page.get(page, [])
        first, last = caption.segments[0].line - 1, caption.segments[-1].line - 1
        block = _block_after(lines, last) or _block_before(lines, first)
        if not block or (page, block[0]) in taken:
            continue
        taken.add((page, block[0]))
        table = _table(lines, block, caption, page, len(tables) + 1)
        if table is not None:
            tables.append(table)
    return tables


def _is_row(line: FlowLine) -> bool:
    return line.text.lstrip().startswith("|")


def _block_after(lines: Sequence[FlowLine], last: int) -> list[int]:
    start = next((i for i in range(last + 1, min(len(lines), last + 2 + NEAR))
                  if _is_row(lines[i])), None)
    if start is None:
        return []
    rows, i, blank = [start], start + 1, 0
    while i < len(lines) and blank <= GAP:
        if _is_row(lines[i]):
            rows.append(i)
            blank = 0
        elif lines[i].text.strip():
            break
        else:
            blank += 1
        i += 1
    return rows


def _block_before(lines: Sequence[FlowLine], first: int) -> list[int]:
    end = next((i for i in range(first - 1, max(-1, first - 2 - NEAR), -1)
                if _is_row(lines[i])), None)
    if end is None:
        return []
    rows, i, blank = [end], end - 1, 0
    while i >= 0 and blank <= GAP:
        if _is_row(lines[i]):
            rows.insert(0, i)
            blank = 0
        elif lines[i].text.strip():
            break
        else:
            blank += 1
        i -= 1
    return rows


def _table(lines: Sequence[FlowLine], block: list[int], caption: Caption, page: int,
           index: int) -> Table | None:
    rows: list[list[TableCell]] = []
    header_rows = 0
    for i in block:
        text = lines[i].text.strip()
        if _RULE.match(text):
            header_rows = header_rows or len(rows)
            continue
        if rows and header_rows == 0 and i - 1 not in block:
            header_rows = len(rows)
        cells = text.strip("|").split("|")
        rows.append([TableCell(text=c.strip(), column=k) for k, c in enumerate(cells)])
    if len(rows) < 2:
        return None
    return Table(id=f"tab{index}", number=caption.label, caption=caption.text, page=page,
                 rows=rows, header_rows=header_rows,
                 lines=[LineRef(page=page, line=i + 1) for i in block])
