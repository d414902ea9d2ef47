"""Numbers that agree, for a parsed Paper: every paragraph sentence against the paper's tables.

``number_findings(paper)`` returns the disagreements, each with both anchors: the sentence
(page and lines) and the table cell (table, row, column, box).
"""

from __future__ import annotations

import re

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.paper import Paper, Paragraph, Table
from papermind.grounding.number_guards import data_numbers, worth_flagging
from papermind.grounding.table_labels import clean_label
from papermind.grounding.table_numbers import (
    CellRef,
    CellView,
    NumberCheck,
    TableView,
    cell_values,
    check_sentence,
    mentions,
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_TABLE_REF = re.compile(r"\b(?:table|tab\.)\s*(\d+)", re.IGNORECASE)
_ABBREVIATION = re.compile(r"(?<![^\W\d_])(?:vs|avg|approx|resp|cf|e\.g|i\.e|et al|fig|figs|tab|"
                           r"eq|eqs|sec|no|nos)\.$", re.IGNORECASE)
_LEAD = re.compile(r"^([^\W\d_][^\d]{1,40}?)\s+[-−]?\d")


class NumberFinding(Frozen):
    """A stated number and the table cell it was read against, with both anchors."""

    check: NumberCheck
    sentence: str
    sentence_anchor: Anchor = Field(description="where the sentence stating the number is")
    cell_anchor: Anchor | None = Field(default=None, description="where the table cell is")


def table_view(table: Table) -> TableView:
    """The check's view of a parsed table: numeric cells, row labels, header labels."""
    view = TableView(id=table.id, number=table.number)
    for r, row in enumerate(table.rows):
        for cell in row:
            values = cell_values(cell.text) if r >= table.header_rows else []
            view.cells.append(CellView(row=r, column=cell.column, text=cell.text, values=values, box=cell.box))
        labels = [c.text for c in row if not cell_values(c.text)]
        labels += [lead for c in row if (lead := leading_label(c.text))]
        labels += [clean for x in labels if (clean := clean_label(x)) and clean != x]
        if r >= table.header_rows and labels:
            view.row_labels[r] = labels
    columns = sorted({c.column for row in table.rows for c in row})
    for row in table.rows[:table.header_rows]:
        starts = [c.column for c in row]
        for k, cell in enumerate(row):
            end = starts[k + 1] if k + 1 < len(starts) else max(columns, default=0) + 1
            for column in range(cell.column, end):
                view.column_labels.setdefault(column, []).append(cell.text)
    return view


def leading_label(text: str) -> str:
    """The words before the first number of a cell that also prints values (an extractor
    that merged a table's label column into its values: 'DEPTS 0.060 0.139' -> 'DEPTS')."""
    match = _LEAD.match(text)
    return match.group(1).strip() if match and cell_values(text) else ""


def sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pieces of a paragraph (not split after 'vs.', 'Avg.', 'e.g.')."""
    out, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if _ABBREVIATION.search(text, max(start, match.start() - 8), match.start()):
            continue
        out.append((start, text[start:match.start()]))
        start = match.end()
    out.append((start, text[start:]))
    return [(o, s) for o, s in out if s.strip()]


def span_anchor(paper: Paper, paragraph: Paragraph, start: int, end: int) -> Anchor:
    """Where characters start..end of a paragraph are printed (page, lines, boxes)."""
    segs = [s for s in paragraph.segments if s.start < end and s.end > start] or paragraph.segments[:1]
    boxes = [b for s in segs if (b := paper.page(s.page).line(s.line).box) is not None]
    last = segs[-1]
    return Anchor(paper_id=paper.id, page=segs[0].page, line_start=segs[0].line, line_end=last.line,
                  page_end=last.page if last.page != segs[0].page else None, boxes=boxes)


def _cell_anchor(paper: Paper, check: NumberCheck) -> Anchor | None:
    if check.cell is None or check.cell.box is None:
        return None
    box = check.cell.box
    lines = [ln.n for ln in paper.page(box.page).lines if ln.box and ln.box.y0 <= box.y1 and ln.box.y1 >= box.y0
             and ln.box.x0 <= box.x1 and ln.box.x1 >= box.x0]
    return Anchor(paper_id=paper.id, page=box.page, line_start=min(lines, default=1),
                  line_end=max(lines, default=1), boxes=[box])


def sentence_contexts(paper: Paper) -> list[tuple[Paragraph, list[TableView], bool]]:
    """Body paragraphs with the tables their numbers are read against (those the paragraph
    names, else all) and whether it named them."""
    views = {t.number: table_view(t) for t in paper.tables}
    if not views:
        return []
    table_lines = {(ref.page, ref.line) for t in paper.tables for ref in t.lines}
    out = []
    for paragraph in paper.paragraphs:
        if paragraph.first and (paragraph.first.page, paragraph.first.line) in table_lines:
            continue  # the table's own lines
        named = [views[n] for n in dict.fromkeys(_TABLE_REF.findall(paragraph.text)) if n in views]
        out.append((paragraph, named or list(views.values()), bool(named)))
    return out


def paper_checks(paper: Paper) -> list[tuple[Paragraph, int, str, list[NumberCheck]]]:
    """(paragraph, sentence offset, sentence, checks) for every sentence with a checked number."""
    out = []
    for paragraph, tables, named in sentence_contexts(paper):
        for offset, sentence in sentences(paragraph.text):
            if checks := check_sentence(sentence, tables, named=named):
                out.append((paragraph, offset, sentence, checks))
    return out


def number_findings(paper: Paper) -> list[NumberFinding]:
    """Numbers stated in the text that no cell of the table they are about holds, kept
    only where that is evidence of a misquote (grounding/number_guards)."""
    findings = []
    printed = data_numbers(paper)
    for paragraph, tables, named in sentence_contexts(paper):
        views = {t.id: t for t in tables}
        for offset, sentence in sentences(paragraph.text):
            for check in check_sentence(sentence, tables, named=named):
                if check.cell is None or check.verdict != "disagrees":
                    continue
                at = offset + check.start
                anchor = span_anchor(paper, paragraph, at, at + len(check.stated))
                pointed = _points_at(sentence, views[check.cell.table_id], check.cell, named)
                own = _lines(paragraph, offset, offset + len(sentence))
                row_named = any(mentions(sentence, label) for label in
                                views[check.cell.table_id].row_labels.get(check.cell.row, []))
                if worth_flagging(check, sentence, printed, pointed=pointed, own=own,
                                  row_named=row_named):
                    findings.append(NumberFinding(check=check, sentence=sentence,
                                                  sentence_anchor=anchor,
                                                  cell_anchor=_cell_anchor(paper, check)))
    return findings


def _lines(paragraph: Paragraph, start: int, end: int) -> list[tuple[int, int]]:
    return [(s.page, s.line) for s in paragraph.segments if s.start < end and s.end > start]


def _points_at(sentence: str, view: TableView, cell: CellRef, named: bool) -> bool:
    """Whether the sentence (or its paragraph) names the cell's table, row or column."""
    if named or (view.number and f"table {view.number}" in sentence.casefold()):
        return True
    labels = [*view.row_labels.get(cell.row, []), *view.column_labels.get(cell.column, [])]
    return any(mentions(sentence, label) for label in labels)
