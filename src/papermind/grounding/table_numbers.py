"""Numbers that agree: do the numbers a sentence states about a table match its cells?

Model-free. A sentence's numbers are read against the cells its words point at (the rows
whose label it names, the columns whose header it names; the whole table when it names
the table but no row or column). A number is

- ``agrees``    when a cell in scope holds it (rounded to the printed digits; 87.3% = 0.873),
- ``derived``   when it is the difference or relative change of two cells in scope
                ("a 3.3 point gain", "a 17.6% reduction"),
- ``disagrees`` when it looks like a cell of that scope (same digits after the point, same
                order of magnitude) yet matches none and derives from none,
- otherwise it is not about the table and is left alone.

Depends on the domain only, so the review panel and the support checks can both call it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import Field

from papermind.domain.base import Frozen
from papermind.domain.geometry import Box

Verdict = Literal["agrees", "derived", "disagrees"]

_NUMBER = re.compile(r"(?<![\w.\-])[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|(?<![\w.\-])[-−]?\d+(?:\.\d+)?%?")
_NOT_A_VALUE = re.compile(r"(table|tab\.|figure|fig\.|section|sec\.|eq\.|equation|appendix|run|"
                          r"step|algorithm|line|chapter|theorem|lemma)\s*$", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")


@dataclass(slots=True)
class Value:
    """A number as printed: its value and how many digits follow the point."""

    value: float
    decimals: int
    percent: bool = False

    @classmethod
    def parse(cls, text: str) -> Value:
        clean = text.replace(",", "").replace("−", "-")
        percent = clean.endswith("%")
        digits = clean.rstrip("%")
        return cls(float(digits), len(digits.split(".")[1]) if "." in digits else 0, percent)

    def equals(self, other: float) -> bool:
        """Whether ``other`` rounds to this number at its printed precision."""
        unit = 10.0 ** -self.decimals
        return abs(round(other, self.decimals) - self.value) < unit / 2


@dataclass(slots=True)
class CellView:
    """One cell with its position; ``values`` are the numbers printed in it."""

    row: int
    column: int
    text: str
    values: list[Value]
    box: Box | None = None


@dataclass(slots=True)
class TableView:
    """What the check needs of a table: cells, row labels and column headers."""

    id: str
    number: str | None
    cells: list[CellView] = field(default_factory=list)
    row_labels: dict[int, list[str]] = field(default_factory=dict)
    column_labels: dict[int, list[str]] = field(default_factory=dict)
    caption: str = ""


class CellRef(Frozen):
    """The cell a stated number was read against."""

    table_id: str
    table_number: str | None = None
    row: int = Field(description="0-based row in the table")
    column: int = Field(description="0-based column")
    text: str
    box: Box | None = None


class NumberCheck(Frozen):
    """One stated number and what the table says about it."""

    stated: str = Field(description="the number as the sentence prints it")
    start: int = Field(description="offset of the number in the sentence")
    verdict: Verdict
    cell: CellRef | None = Field(default=None, description="the matching (or closest) cell")
    other: CellRef | None = Field(default=None, description="second cell of a derived number")
    note: str = ""


def cell_values(text: str) -> list[Value]:
    """Numbers printed in a cell ('[BOLD] 0.93', '0.63 ± 0.15', '7500.0*')."""
    return [Value.parse(m.group()) for m in _NUMBER.finditer(text)]


def mentions(sentence: str, label: str) -> bool:
    """Whether the sentence names the label (short labels such as 'He' only in their case)."""
    short = len(label.strip()) <= 3
    words = _joined_words(label, short)
    return bool(words) and f" {words} " in f" {_joined_words(sentence, short)} "


@lru_cache(maxsize=4096)
def _joined_words(text: str, keep_case: bool) -> str:
    """The words of ``text`` joined by single spaces (case-folded unless ``keep_case``):
    cached, as every number of a sentence is read against every label of every table."""
    return " ".join(_WORD.findall(text if keep_case else text.casefold()))


def _scope(sentence: str, table: TableView, whole: bool
           ) -> tuple[list[CellView], list[CellView], bool]:
    """(cells the sentence points at most narrowly, the wider set its row and column names
    cover, whether it points at the table at all: names a row, column or the table)."""
    rows = {r for r, labels in table.row_labels.items() if any(mentions(sentence, x) for x in labels)}
    cols = {c for c, labels in table.column_labels.items() if any(mentions(sentence, x) for x in labels)}
    numeric = [c for c in table.cells if c.values]
    if not (rows or cols):
        return numeric, numeric, whole
    union = [c for c in numeric if c.row in rows or c.column in cols]
    both = [c for c in union if c.row in rows and c.column in cols]
    return (both or union), union, True


def stated_numbers(sentence: str) -> list[tuple[int, str, Value]]:
    """(offset, text, value) of the numbers a sentence states (not counts, years, 'Table 2')."""
    out = []
    for match in _NUMBER.finditer(sentence):
        text = match.group()
        value = Value.parse(text)
        if _NOT_A_VALUE.search(sentence[max(0, match.start() - 14):match.start()]):
            continue
        if value.decimals == 0 and not value.percent and (abs(value.value) < 10 or 1900 <= value.value <= 2100):
            continue  # counts and years
        out.append((match.start(), text, value))
    return out


def _ref(table: TableView, cell: CellView) -> CellRef:
    return CellRef(table_id=table.id, table_number=table.number, row=cell.row, column=cell.column,
                   text=cell.text, box=cell.box)


def _match(value: Value, scope: Sequence[CellView], percent_columns: set[int]) -> CellView | None:
    """A cell holding the number at its printed precision (at most one digit fewer); a
    percentage matches a fraction (87.3% = 0.873) or a cell of a percentage column."""
    for cell in scope:
        for v in cell.values:
            if value.decimals < v.decimals - 1 and abs(v.value - value.value) > 1e-9:
                continue  # '38.7' is not '38.72' (but '1.0' is '1.0000')
            as_is = not value.percent or v.percent or cell.column in percent_columns or "%" in cell.text
            near = abs(v.value - value.value) < 1.0  # equals() is never true farther away
            near_scaled = value.percent and v.value <= 1 and abs(v.value * 100 - value.value) < 1.0
            if (as_is and near and value.equals(v.value)) or (near_scaled and value.equals(v.value * 100)):
                return cell
    return None


_COMPARES = re.compile(r"\b(gain|improv|reduc|increas|decreas|drop|differ|point|faster|slower|higher|compar|"
                       r"lower|better|worse|margin|outperform|speed|relative)", re.IGNORECASE)


def _derived(value: Value, scope: Sequence[CellView]) -> tuple[float, CellView, CellView] | None:
    """The two cells of one row or column whose difference or relative change (in %) comes
    closest to the number, with that closeness (0 = exact at the printed precision)."""
    firsts = [(c, c.values[0].value) for c in scope[:150]]
    best: tuple[float, CellView, CellView] | None = None
    for a, x in firsts:
        for b, y in firsts:
            if a is b or (a.row != b.row and a.column != b.column):
                continue
            diff = abs(y - x)
            options = [diff, diff * 100] + ([diff / abs(x) * 100] if value.percent and x else [])
            for option in options:
                miss = 0.0 if value.equals(option) else abs(option - value.value) / max(abs(value.value), 1e-9)
                if best is None or miss < best[0]:
                    best = (miss, a, b)
    return best


_SPREAD = re.compile(r"±\s*[-−]?\d[\d.,]*")


def _reported(cell: CellView) -> list[Value]:
    """The values a cell reports, without its spreads ('0.63 ± 0.15' -> 0.63; an extractor's
    merged cell 'DEPTS 0.060 0.139' -> both; '5.06 (↓25.16)' -> both)."""
    if len(cell.values) < 2:
        return cell.values
    return list(_unspread_values(cell.text)) or cell.values[:1]


@lru_cache(maxsize=4096)
def _unspread_values(text: str) -> tuple[Value, ...]:
    return tuple(cell_values(_SPREAD.sub(" ", text)))


def _cell_like(value: Value, scope: Sequence[CellView], tolerance: float) -> CellView | None:
    """The closest cell printed with the same precision and within ``tolerance`` (relative;
    integers, often counts, at most 25%)."""
    best: tuple[float, CellView] | None = None
    for cell in scope:
        for v in _reported(cell):
            scaled = v.value * 100 if value.percent and v.value <= 1 else v.value
            if v.decimals != value.decimals or scaled == 0:
                continue
            distance = abs(value.value - scaled) / abs(scaled)
            if distance > (min(tolerance, 0.25) if value.decimals == 0 else tolerance):
                continue
            if best is None or distance < best[0]:
                best = (distance, cell)
    return best[1] if best else None


_VALUE_CUE = re.compile(r"\b(from|to)\s*$")
_POINTS = re.compile(r"\s*(percentage\s+|absolute\s+)?(points?|pp)\b", re.IGNORECASE)
_PERCENT_LIKE = re.compile(r"%|\b(acc|accuracy|precision|recall|f1|error|bleu|rouge|em)\b", re.IGNORECASE)


def _check_one(start: int, text: str, value: Value, sentence: str, table: TableView,
               scope: tuple[list[CellView], list[CellView], bool],
               compares: bool) -> NumberCheck | None:
    narrow, wide, pointed = scope
    if not wide:
        return None
    every = [c for c in table.cells if c.values]
    percent_columns = {k for k, labels in table.column_labels.items() if any(_PERCENT_LIKE.search(x) for x in labels)}
    if cell := _match(value, narrow or wide, percent_columns) or _match(value, every, percent_columns):
        return NumberCheck(stated=text, start=start, verdict="agrees", cell=_ref(table, cell))
    is_value = bool(_VALUE_CUE.search(sentence[max(0, start - 6):start]))  # 'from 1.06 to 0.87'
    pair = _derived(value, narrow) if pointed and compares and not is_value else None
    if pair is not None and pair[0] == 0.0:
        return NumberCheck(stated=text, start=start, verdict="derived", cell=_ref(table, pair[1]),
                           other=_ref(table, pair[2]), note="difference of two cells")
    tolerance = 0.9 if pointed else 0.05
    near = _cell_like(value, narrow, tolerance) or _cell_like(value, wide, tolerance)
    is_gap = bool(_POINTS.match(sentence[start + len(text):]))  # 'a 3.3 point gain'
    if near is None and is_gap and pair is not None and pair[0] <= 0.5:
        return NumberCheck(stated=text, start=start, verdict="disagrees", cell=_ref(table, pair[1]),
                           other=_ref(table, pair[2]),
                           note=f"no two cells differ by {text}; the closest pair is {pair[1].text!r}, {pair[2].text!r}")
    if near is not None and (pointed or value.decimals >= 2 or abs(value.value) >= 100):
        return NumberCheck(stated=text, start=start, verdict="disagrees", cell=_ref(table, near),
                           note=f"no cell holds {text}; the closest is {near.text!r}")
    return None


def check_sentence(sentence: str, tables: Sequence[TableView], *, named: bool = False) -> list[NumberCheck]:
    """Checks of the numbers in ``sentence`` against ``tables``; ``named``: the sentence's
    paragraph names these tables, so a number may be read against a whole table."""
    checks: list[NumberCheck] = []
    compares = bool(_COMPARES.search(sentence))
    numbers = stated_numbers(sentence)
    scopes = [_scope(sentence, table, named or bool(table.number) and
                     f"table {table.number}" in sentence.casefold())
              for table in tables] if numbers else []
    for start, text, value in numbers:
        found = []
        for table, scope in zip(tables, scopes, strict=True):
            if check := _check_one(start, text, value, sentence, table, scope, compares):
                found.append(check)
        agreeing = [c for c in found if c.verdict != "disagrees"]
        if agreeing or found:
            checks.append((agreeing or found)[0])
    return checks
