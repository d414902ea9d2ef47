"""Numbers that agree, for a parsed Paper: every paragraph sentence against the paper's tables.

``number_findings(paper)`` returns the disagreements, each with both anchors: the sentence
(page and lines) and the table cell (table, row, column, box).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.paper import Block, Paper, Paragraph, Table
from papermind.grounding.number_guards import Printed, data_numbers, worth_flagging
from papermind.grounding.number_quantity import (
    Strength,
    about_something_else,
    naming,
    sum_of_cells,
)
from papermind.grounding.table_labels import clean_label
from papermind.grounding.table_numbers import (
    CellRef,
    CellView,
    NumberCheck,
    TableView,
    Value,
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
    naming: Strength = Field(
        default="named", description="what the sentence names of the cell: the cell itself (its "
        "row and column, or a row or column with one value), its row or column, or only the "
        "table's metric")
    in_caption: bool = Field(default=False, description="the number is stated in the table's "
                             "own caption")


def table_view(table: Table) -> TableView:
    """The check's view of a parsed table: numeric cells, row labels, header labels."""
    view = TableView(id=table.id, number=table.number, caption=table.caption)
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


def span_anchor(paper: Paper, paragraph: Block, start: int, end: int) -> Anchor:
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


def caption_contexts(paper: Paper) -> list[tuple[Block, list[TableView], bool]]:
    """Table captions, each with its own table only (a caption speaks of its table)."""
    views = {t.number: table_view(t) for t in paper.tables if t.number}
    return [(c, [views[c.label]], True) for c in paper.captions
            if c.kind == "table" and c.label in views and c.segments]


def number_findings(paper: Paper) -> list[NumberFinding]:
    """Numbers stated in the text (or a table's caption) that no cell of the table they are
    about holds, kept only where the sentence is about the cell's quantity
    (grounding/number_quantity) and that is evidence of a misquote (grounding/number_guards)."""
    findings = []
    printed = data_numbers(paper)
    contexts = [(*c, False) for c in sentence_contexts(paper)] + \
        [(*c, True) for c in caption_contexts(paper)]
    for block, tables, named, caption in contexts:
        views = {t.id: t for t in tables}
        for offset, sentence in sentences(block.text):
            for check in check_sentence(sentence, tables, named=named):
                if check.cell is not None and check.verdict == "disagrees":
                    said = _Said(block, offset, sentence, named, caption)
                    if found := _misquote(paper, said, check, views[check.cell.table_id], printed):
                        findings.append(found)
    return findings


class _Said(NamedTuple):
    """A sentence of a paragraph or caption, where it starts, and how it was read."""

    block: Block
    offset: int
    sentence: str
    named: bool
    caption: bool


def _misquote(paper: Paper, said: _Said, check: NumberCheck, view: TableView,
              printed: Printed) -> NumberFinding | None:
    """The finding for a ``disagrees`` check, or None when the sentence is not about the
    cell's quantity or the number is no evidence of a misquote."""
    assert check.cell is not None
    sentence = said.sentence
    own = _lines(said.block, said.offset, said.offset + len(sentence))
    row_named = any(mentions(sentence, x) for x in view.row_labels.get(check.cell.row, []))
    if not worth_flagging(check, sentence, printed, own=own, row_named=row_named,
                          pointed=_points_at(sentence, view, check.cell, said.named)):
        return None
    names = naming(sentence, view, check.cell)
    if not names.any or about_something_else(sentence, check.start, view, check.cell, names) \
            or sum_of_cells(Value.parse(check.stated), view):
        return None
    at = said.offset + check.start
    return NumberFinding(check=check, sentence=sentence, naming=names.strength,
                         sentence_anchor=span_anchor(paper, said.block, at, at + len(check.stated)),
                         in_caption=said.caption, cell_anchor=_cell_anchor(paper, check))


def _lines(paragraph: Block, start: int, end: int) -> list[tuple[int, int]]:
    return [(s.page, s.line) for s in paragraph.segments if s.start < end and s.end > start]


def _points_at(sentence: str, view: TableView, cell: CellRef, named: bool) -> bool:
    """Whether the sentence (or its paragraph) names the cell's table, row or column."""
    if named or (view.number and f"table {view.number}" in sentence.casefold()):
        return True
    labels = [*view.row_labels.get(cell.row, []), *view.column_labels.get(cell.column, [])]
    return any(mentions(sentence, label) for label in labels)
