"""Reading order on one- and two-column pages, and paragraph-break cues from geometry."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

import numpy as np

from papermind.ingest.layout import FlowLine, Rect


def find_gutter(boxes: Sequence[Rect], width: float) -> float | None:
    """x of the column gutter when these line boxes form two columns, else None."""
    arr = np.array([b for b in boxes if b[2] - b[0] > 2], dtype=float).reshape(-1, 4)
    if len(arr) < 12 or width <= 0:
        return None
    xs = np.arange(0.35 * width, 0.65 * width + 1e-9, 2.0)
    crossing = ((arr[None, :, 0] < xs[:, None] - 1) & (arr[None, :, 2] > xs[:, None] + 1)).sum(axis=1)
    best_cross = int(crossing.min())
    runs = np.flatnonzero(crossing == best_cross)  # the middle of the widest empty strip
    splits = np.split(runs, np.flatnonzero(np.diff(runs) > 1) + 1)
    widest = max(splits, key=len)
    best_x = float(xs[widest[len(widest) // 2]])
    widths = arr[:, 2] - arr[:, 0]
    left = widths[arr[:, 2] <= best_x + 1]
    right = widths[arr[:, 0] >= best_x - 1]
    if len(left) < 5 or len(right) < 5 or best_cross > 0.25 * len(arr):
        return None
    if np.percentile(left, 75) < 0.3 * width or np.percentile(right, 75) < 0.3 * width:
        return None
    return best_x


def _rows(lines: list[FlowLine]) -> list[FlowLine]:
    """Top-to-bottom; lines sharing a row (vertical overlap) left-to-right."""
    lines = sorted(lines, key=lambda ln: ln.box[1])  # type: ignore[index]
    out: list[FlowLine] = []
    row: list[FlowLine] = []
    for line in lines:
        if row and line.box[1] >= min(r.box[3] for r in row) - 0.5 * line.height:  # type: ignore[index]
            out.extend(sorted(row, key=lambda ln: ln.box[0]))  # type: ignore[index]
            row = []
        row.append(line)
    out.extend(sorted(row, key=lambda ln: ln.box[0]))  # type: ignore[index]
    return out


def order_lines(lines: list[FlowLine], width: float) -> list[FlowLine]:
    """Flow lines in reading order; sets ``column`` (0 single/spanning, 1 left, 2 right)."""
    boxed = [ln for ln in lines if ln.box]
    gutter = find_gutter([ln.box for ln in boxed if ln.box], width)
    if gutter is None:
        return _rows(boxed)
    out: list[FlowLine] = []
    band: list[FlowLine] = []
    for line in sorted(boxed, key=lambda ln: ln.box[1]):  # type: ignore[index]
        x0, _, x1, _ = line.box  # type: ignore[misc]
        if x1 <= gutter + 1:
            line.column = 1
        elif x0 >= gutter - 1:
            line.column = 2
        else:
            line.column = 0
            out.extend(_flush(band))
            band = []
            out.append(line)
            continue
        band.append(line)
    out.extend(_flush(band))
    return out


def _flush(band: list[FlowLine]) -> list[FlowLine]:
    return _rows([ln for ln in band if ln.column == 1]) + _rows([ln for ln in band if ln.column == 2])


def mark_block_starts(lines: Sequence[FlowLine]) -> None:
    """Set ``starts_block`` from vertical gaps, indents, short previous lines and font changes."""
    gaps = [b.box[1] - a.box[3] for a, b in zip(lines, lines[1:], strict=False)  # type: ignore[index]
            if a.column == b.column and 0 <= b.box[1] - a.box[3] < 3 * max(b.height, 1)]  # type: ignore[index]
    usual = median(gaps) if gaps else 2.0
    extent: dict[int, tuple[float, float]] = {}
    for col in {ln.column for ln in lines}:
        members = sorted(ln.box[0] for ln in lines if ln.column == col)  # type: ignore[index]
        rights = sorted(ln.box[2] for ln in lines if ln.column == col)  # type: ignore[index]
        extent[col] = (members[len(members) // 10], rights[-1 - len(rights) // 10])
    prev: FlowLine | None = None
    for line in lines:
        line.starts_block = _starts(prev, line, usual, extent)
        prev = line


def _starts(prev: FlowLine | None, line: FlowLine, usual: float,
            extent: dict[int, tuple[float, float]]) -> bool:
    if prev is None:
        return True
    left, right = extent[line.column]
    em = max(line.size, line.height * 0.8, 1.0)
    indent = em * 0.6 < line.box[0] - left < em * 4  # type: ignore[index]
    if abs(line.size - prev.size) > 0.8 or prev.bold != line.bold and len(prev.text) < 80:
        return True
    if prev.column == line.column:
        gap = line.box[1] - prev.box[3]  # type: ignore[index]
        if gap > usual + max(0.35 * em, 2.0) or gap < -2 * em:
            return True
    short = prev.box[2] < right - 2.5 * em and prev.text.endswith((".", ":", "?", "!"))  # type: ignore[index]
    return indent and (short or prev.column != line.column or prev.box[0] - left < em * 0.6)  # type: ignore[index]
