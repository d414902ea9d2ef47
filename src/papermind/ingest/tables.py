"""Tables as cells, for born-digital PDFs: a 'Table N' caption anchors a region of aligned
text next to it; its lines' runs (parted by wide gaps) become cells, grouped into rows by
height and into columns by the x-extent of the fullest rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from papermind.domain.geometry import Box
from papermind.domain.paper import Caption, LineRef, Table, TableCell
from papermind.ingest.layout import FlowLine, LaidOutPage, Rect

_NUMERIC = re.compile(r"^[~≈<>±+−-]?\(?\d[\d.,]*\)?\s*(%|[a-zA-Z]{0,3})?[*†‡]?(\s*±\s*\d[\d.,]*)?$")
_MAX_GAP_EM = 2.6  # a vertical gap wider than this (in line heights) ends a table region


@dataclass(slots=True)
class _Cell:
    text: str
    box: Rect
    line: FlowLine


def _cells(line: FlowLine) -> list[_Cell]:
    if line.box is None:
        return []
    if line.pieces:
        return [_Cell(text, box, line) for text, box in line.pieces]
    return [_Cell(line.text, line.box, line)]


def _prose(line: FlowLine, text_width: float) -> bool:
    """A body-text line: one run of many words across most of the text width."""
    if line.box is None or len(line.pieces) > 1:
        return False
    if len(line.text.split()) >= 2 and line.text.endswith((".", ":")) and not line.text[-2:-1].isdigit():
        return True  # the last line of a paragraph
    return len(line.text.split()) >= 7 and line.box[2] - line.box[0] > 0.55 * text_width


def _band(caption: Rect, page: LaidOutPage) -> tuple[float, float]:
    """The horizontal band a table beside this caption may use: its column, or the page."""
    middle = page.width / 2
    if caption[2] <= middle + 5:
        return 0.0, middle + 5
    if caption[0] >= middle - 5:
        return middle - 5, page.width
    return 0.0, page.width


def _region(page: LaidOutPage, caption: Rect, skip: set[int], downward: bool) -> list[FlowLine]:
    """Table-like lines next to the caption, walking away from it until prose or a gap."""
    left, right = _band(caption, page)
    text_width = max((ln.box[2] - ln.box[0] for ln in page.lines if ln.box), default=page.width)
    candidates = [ln for ln in page.lines if ln.box and id(ln) not in skip
                  and ln.box[0] >= left - 1 and ln.box[2] <= right + 1
                  and (ln.box[1] >= caption[3] - 1 if downward else ln.box[3] <= caption[1] + 1)]
    candidates.sort(key=lambda ln: ln.box[1] if downward else -ln.box[3])  # type: ignore[index]
    picked: list[FlowLine] = []
    edge = caption[3] if downward else caption[1]
    for line in candidates:
        box = line.box
        assert box is not None
        gap = box[1] - edge if downward else edge - box[3]
        if gap > _MAX_GAP_EM * max(line.height, 1.0) or _prose(line, text_width):
            break
        picked.append(line)
        edge = max(edge, box[3]) if downward else min(edge, box[1])
    return picked


def _rows(lines: Sequence[FlowLine]) -> list[list[_Cell]]:
    """Cells grouped into rows by vertical overlap, each row left to right."""
    cells = sorted((c for ln in lines for c in _cells(ln)), key=lambda c: (c.box[1] + c.box[3]) / 2)
    rows: list[list[_Cell]] = []
    for cell in cells:
        centre = (cell.box[1] + cell.box[3]) / 2
        if rows and rows[-1][0].box[1] - 0.5 <= centre <= rows[-1][0].box[3] + 0.5:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    return [sorted(row, key=lambda c: c.box[0]) for row in rows]


def _columns(rows: Sequence[Sequence[_Cell]]) -> list[tuple[float, float]]:
    """Column extents from the rows with the most cells."""
    most = max(len(r) for r in rows)
    full = [r for r in rows if len(r) == most]
    return [(min(r[k].box[0] for r in full), max(r[k].box[2] for r in full)) for k in range(most)]


def _column_of(box: Rect, columns: Sequence[tuple[float, float]]) -> int:
    overlaps = [min(box[2], x1) - max(box[0], x0) for x0, x1 in columns]
    best = max(range(len(columns)), key=lambda k: overlaps[k])
    if overlaps[best] > 0:
        return next(k for k, v in enumerate(overlaps) if v > 0)  # a spanning cell starts left
    return min(range(len(columns)), key=lambda k: abs(columns[k][0] - box[0]))


def _box(page: int, rects: Sequence[Rect]) -> Box:
    return Box(page=page, x0=round(min(r[0] for r in rects), 2), y0=round(min(r[1] for r in rects), 2),
               x1=round(max(r[2] for r in rects), 2), y1=round(max(r[3] for r in rects), 2))


def _header_rows(rows: Sequence[Sequence[TableCell]]) -> int:
    for k, row in enumerate(rows):
        if any(_NUMERIC.match(cell.text) for cell in row):
            return k
    return 0


def _table(page: LaidOutPage, caption: Caption, index: int, lines: Sequence[FlowLine]) -> Table | None:
    raw_rows = _rows(lines)
    if len(raw_rows) < 2 or max(len(r) for r in raw_rows) < 2:
        return None
    columns = _columns(raw_rows)
    rows: list[list[TableCell]] = []
    for raw in raw_rows:
        merged: dict[int, list[_Cell]] = {}
        for cell in raw:
            merged.setdefault(_column_of(cell.box, columns), []).append(cell)
        rows.append([TableCell(text=" ".join(c.text for c in cells), column=k,
                               box=_box(page.number, [c.box for c in cells]))
                     for k, cells in sorted(merged.items())])
    refs = sorted({(ln.page, ln.n) for ln in lines})
    return Table(id=f"tab{index}", number=caption.label, caption=caption.text, page=page.number,
                 box=_box(page.number, [c.box for raw in raw_rows for c in raw]), rows=rows,
                 header_rows=_header_rows(rows), lines=[LineRef(page=p, line=n) for p, n in refs])


def find_tables(pages: Sequence[LaidOutPage], captions: Sequence[Caption]) -> list[Table]:
    """One Table per 'Table N' caption whose neighbourhood holds aligned rows of cells."""
    by_page = {p.number: p for p in pages}
    caption_lines = {(s.page, s.line) for c in captions for s in c.segments}
    tables: list[Table] = []
    for caption in captions:
        if caption.kind != "table" or not caption.segments:
            continue
        page = by_page.get(caption.segments[0].page)
        if page is None:
            continue
        mine = {s.line for s in caption.segments if s.page == page.number}
        boxes = [ln.box for ln in page.lines if ln.n in mine and ln.box]
        if not boxes:
            continue
        rect = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes))
        skip = {id(ln) for ln in page.lines if (ln.page, ln.n) in caption_lines}
        for downward in (True, False):
            table = _table(page, caption, len(tables) + 1, _region(page, rect, skip, downward))
            if table is not None:
                tables.append(table)
                break
    return tables
