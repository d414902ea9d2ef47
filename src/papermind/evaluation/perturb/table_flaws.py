"""The two planted flaws about a paper's tables (perturb.flaws lists every kind).

- ``number_vs_table``: a decimal a prose sentence quotes from a table, its last digit
  changed; where no sentence quotes one, a sentence is added after a paragraph that refers
  to the table, stating a named cell (table number, row label, column label) with its last
  digit changed.
- ``baseline_not_beaten``: a sentence added after such a paragraph, saying the row that is
  worst in a result column outperforms the best one (both numbers as printed).

A changed value is one that no cell of the paper's tables and no data line of its text
(unparsed tables, figure labels) prints, so it truly disagrees.
"""

from __future__ import annotations

import random
import re

from papermind.domain.paper import Paper, Table
from papermind.evaluation.perturb.doc import Doc, Site, free
from papermind.grounding.comparisons import NOT_A_METRIC, lower_is_better
from papermind.grounding.number_guards import data_numbers, is_prose, significant_digits
from papermind.grounding.paper_numbers import paper_checks, sentences, table_view
from papermind.grounding.table_labels import NamedCell, named_cells, transposed
from papermind.grounding.table_numbers import Value

_TABLE_WORD = re.compile(r"\b(?:table|tab\.)\s*[A-Z]?\d", re.IGNORECASE)


def number_vs_table(doc: Doc, paper: Paper, rng: random.Random,
                    used: set[tuple[int, int]]) -> Site | None:
    """A table value quoted in the text, changed; else a sentence stating one, changed."""
    held = [v for t in paper.tables for c in table_view(t).cells for v in c.values]
    held += [v for values in data_numbers(paper).values() for v in values]
    return _quoted(doc, paper, rng, used, held) or _stated(doc, paper, rng, used, held)


def _quoted(doc: Doc, paper: Paper, rng: random.Random, used: set[tuple[int, int]],
            held: list[Value]) -> Site | None:
    """A decimal number of a prose sentence (on a prose line: not a table row or a list of
    settings spilled into a paragraph) that a short table cell holds, changed; a coarse one
    ('0.25') only in a sentence that names a table."""
    sites = []
    for paragraph, offset, sentence, checks in paper_checks(paper):
        if len(sentence.split()) < 8 or not is_prose(sentence):
            continue  # not tick labels or a table row the parser left in the text
        for check in checks:
            if check.verdict != "agrees" or "." not in check.stated or check.cell is None \
                    or len(check.cell.text) > 24:
                continue
            if significant_digits(check.stated) < 3 and not _TABLE_WORD.search(sentence):
                continue  # 'α < 1.0' equals a cell by chance: no quote of the table
            at = offset + check.start
            seg = next((s for s in paragraph.segments if s.start <= at < s.end), None)
            if seg is not None:
                sites.append((seg.page, seg.line, check.stated))
    sites = rng.sample(sites, len(sites))
    sites.sort(key=lambda site: significant_digits(site[2]) < 3)  # copied values first
    for page, line, stated in sites:
        original = doc.line(page, line)
        if original.count(stated) != 1 or not free(used, page, line) or not is_prose(original):
            continue
        changed = _changed(stated, rng, held)
        if changed:
            doc.edit(page, line, original.replace(stated, changed))
            used.add((page, line))
            return original, f"{stated} -> {changed}"
    return None


def _stated(doc: Doc, paper: Paper, rng: random.Random, used: set[tuple[int, int]],
            held: list[Value]) -> Site | None:
    """A sentence naming a decimal cell (precise ones first) with its value changed."""
    cells = [(t, c, v) for t in paper.tables for c in named_cells(table_view(t))
             for v in c.values if v.decimals > 0]
    cells = rng.sample(cells, len(cells))
    cells.sort(key=lambda tcv: significant_digits(_printed(tcv[2])) < 3)
    for table, cell, value in cells:
        stated = _printed(value)
        changed = _changed(stated, rng, held)
        spot = _after_mention(paper, table, used, rng)
        if changed is None or spot is None:
            continue
        named = cell.column_label if len(cell.values) == 1 else ""  # a merged cell: no column
        column = f" on {named}" if named not in ("", cell.row_label) else ""
        doc.insert_after(*spot, f"As listed in Table {table.number}, {cell.row_label} obtains "
                                f"a value of {changed}{column} in this setting.")
        used.add((spot[0], spot[1] + 1))
        return "", (f"Table {table.number}, {cell.row_label}"
                    f"{' / ' + named if column else ''}: {stated} -> {changed}")
    return None


def baseline_not_beaten(doc: Doc, paper: Paper, rng: random.Random,
                        used: set[tuple[int, int]]) -> Site | None:
    """'As Table N shows, <worst row> outperforms <best row> on <column> (x vs. y).'"""
    for table in rng.sample(paper.tables, len(paper.tables)):
        for view in (table_view(table), transposed(table_view(table))):
            by_column: dict[int, list[NamedCell]] = {}
            for cell in named_cells(view):
                header = " ".join(view.column_labels.get(cell.column, []))
                if cell.value is not None and cell.column_label and not NOT_A_METRIC.search(header):
                    by_column.setdefault(cell.column, []).append(cell)
            for column in rng.sample(sorted(by_column), len(by_column)):
                header = " ".join(view.column_labels[column])
                if site := _claim_beaten(doc, paper, table, by_column[column], header, rng, used):
                    return site
    return None


def _claim_beaten(doc: Doc, paper: Paper, table: Table, cells: list[NamedCell], header: str,
                  rng: random.Random, used: set[tuple[int, int]]) -> Site | None:
    lower = lower_is_better(header)
    ranked = sorted(cells, key=lambda c: c.value.value if c.value else 0.0, reverse=not lower)
    best, worse = ranked[0], ranked[-1]
    if best.value is None or worse.value is None or best.value.value == worse.value.value:
        return None
    spot = _after_mention(paper, table, used, rng)
    if spot is None:
        return None
    doc.insert_after(*spot, (
        f"As Table {table.number} shows, {worse.row_label} outperforms {best.row_label} "
        f"on {best.column_label} ({_printed(worse.value)} vs. {_printed(best.value)})."))
    used.add((spot[0], spot[1] + 1))
    return "", (f"{worse.row_label} said to beat {best.row_label} on "
                f"{best.column_label}; the table shows the opposite")


def _after_mention(paper: Paper, table: Table, used: set[tuple[int, int]],
                   rng: random.Random) -> tuple[int, int] | None:
    """The last line of a prose paragraph that refers to the table (else of the first one
    after the table), ending a sentence, with nothing planted near it."""
    mention = re.compile(rf"\b(?:Table|Tab\.)\s*{re.escape(table.number or '')}(?!\w|\.\d)")
    own = {(ref.page, ref.line) for ref in table.lines}
    end = max(((ref.page, ref.line) for ref in table.lines), default=(0, 0))
    refer, after = [], []
    for paragraph in paper.paragraphs:
        if not paragraph.segments:
            continue
        first, last = paragraph.segments[0], paragraph.segments[-1]
        pieces = sentences(paragraph.text)
        if (first.page, first.line) in own or not pieces or not is_prose(pieces[-1][1]) \
                or not paragraph.text.rstrip().endswith(".") or not free(used, last.page, last.line):
            continue
        if mention.search(paragraph.text):
            refer.append((last.page, last.line))
        elif (first.page, first.line) > end:
            after.append((last.page, last.line))
    return rng.choice(refer) if refer else min(after, default=None)


def _printed(value: Value) -> str:
    return f"{value.value:.{value.decimals}f}{'%' if value.percent else ''}"


def _changed(stated: str, rng: random.Random, held: list[Value]) -> str | None:
    """The number with its last digit changed (same digits after the point and magnitude,
    so it still reads as a value of the table), to one the paper prints nowhere (not even
    rounded from a finer value)."""
    digits = [i for i, c in enumerate(stated) if c.isdigit()]
    if not digits:
        return None
    i = digits[-1]
    for new in rng.sample("123456789", 9):
        changed = stated[:i] + new + stated[i + 1:]
        value = Value.parse(changed)
        if new != stated[i] and not any(v.decimals >= value.decimals and value.equals(v.value)
                                        for v in held):
            return changed
    return None
