"""The cells of a parsed table that a sentence can name: by a row label only that row carries
and a column header, each cleaned of extraction debris.

Tables extracted from PDFs merge rows ('C.E. C.E. SupCon' over one cell of five values),
leave citations cut off in labels ('DANN (Ganin et al.,') and make up headers ('Col1').
A cell is nameable when it reports a value, its row has a clean label no other row carries,
and (optionally) its column a clean header; its ``value`` is the one it reports (a main value
with a change in brackets, '5.06 (↓25.16)', counts as one), None for a merged cell.
Tables that put methods in columns are read through ``transposed``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from papermind.grounding.table_numbers import CellView, TableView, Value, cell_values, mentions

_PLACEHOLDER = re.compile(r"^col\d+$", re.IGNORECASE)
_CUT_CITATION = re.compile(r"\s*\((?:[^()]*\bet al\.?|[^()]*&)[^()]*$")
_SPREAD = re.compile(r"±\s*[-−]?\d[\d.,]*")
_WORDY = re.compile(r"[^\W\d_]{2,}")
_MAIN_AND_CHANGE = re.compile(r"^\s*[-−]?\d[\d.,]*%?\s*\([^()]*\)\s*$")


@dataclass(frozen=True)
class NamedCell:
    """A one-value cell with the labels a sentence would name it by."""

    table_number: str
    row: int
    column: int
    """The cell's position in the table view (as ``CellView``)."""
    row_label: str
    column_label: str
    cell: CellView
    values: list[Value]
    value: Value | None


def clean_label(text: str) -> str:
    """The label without a cut-off citation ('CDAN + MCC (Jin et al.,' -> 'CDAN + MCC');
    '' when it is no usable label (a placeholder, mostly numbers, too long, unbalanced, cut
    off: 'ZO-DS GE, q =')."""
    label = _CUT_CITATION.sub("", " ".join(text.split())).strip(" ,;:")
    if not label or len(label) > 40 or len(label.split()) > 6 or _PLACEHOLDER.match(label):
        return ""
    if label.count("(") != label.count(")") or label.endswith(("=", "+", "-", "/")) \
            or not _WORDY.search(label) or cell_values(label):
        return ""
    return label


def reported(cell: CellView) -> list[Value]:
    """The values a cell reports, its spreads left out ('0.63 ± 0.15' -> [0.63])."""
    return cell_values(_SPREAD.sub(" ", cell.text)) if cell.values else []


def row_names(view: TableView) -> dict[int, str]:
    """Row -> the first clean label of the row that no other row carries ('SDAT' names its
    row beside 'CDAN w/ SDAT': a sentence's longest match decides)."""
    out = {}
    for row, labels in view.row_labels.items():
        others = [clean_label(x) or x for r, xs in view.row_labels.items() if r != row for x in xs]
        for label in map(clean_label, labels):
            if label and not any(mentions(other, label) and mentions(label, other)
                                 for other in others):
                out[row] = label
                break
    return out


def column_names(view: TableView) -> dict[int, str]:
    """Column -> its clean header label, when one header names it and no other column."""
    cleaned = {c: [x for x in map(clean_label, labels) if x]
               for c, labels in view.column_labels.items()}
    out = {}
    for column, labels in cleaned.items():
        own = [x for x in labels if not any(x in ys for c, ys in cleaned.items() if c != column)]
        if own:
            out[column] = own[-1]  # the lowest header row is the most specific
    return out


def _numeric(text: str) -> bool:
    """A cell of a value (with marks such as '%', '*', '[BOLD]'), not a label with a number."""
    rest = _SPREAD.sub(" ", text).replace("[BOLD]", " ")
    return len(text) <= 48 and not _WORDY.search(rest)


def named_cells(view: TableView) -> list[NamedCell]:
    """The table's value cells whose row has a name (column label '' when none)."""
    if not view.number:
        return []
    rows, columns = row_names(view), column_names(view)
    out = []
    for cell in view.cells:
        values = reported(cell)
        if cell.row in rows and values and _numeric(cell.text):
            one = len(values) == 1 or bool(_MAIN_AND_CHANGE.match(cell.text))
            out.append(NamedCell(view.number, cell.row, cell.column, rows[cell.row],
                                 columns.get(cell.column, ""), cell, values,
                                 values[0] if one else None))
    return out


def transposed(view: TableView) -> TableView:
    """The table with rows and columns swapped (for tables with one method per column)."""
    return TableView(id=view.id, number=view.number,
                     cells=[CellView(row=c.column, column=c.row, text=c.text, values=c.values,
                                     box=c.box) for c in view.cells],
                     row_labels=dict(view.column_labels), column_labels=dict(view.row_labels),
                     caption=view.caption)
