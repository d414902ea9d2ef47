"""When a number a sentence states is worth calling wrong against a table.

The sentence-level check (table_numbers) reads a number against the cells its words point
at. Run over whole papers extracted from PDFs it meets sentences that are not prose (figure
tick labels, table rows the extractor printed as text) and tables it could not parse (rows
printed as plain lines), where a number 'near' a cell is no evidence of a mistake. A
disagreement is kept only when

- the sentence is prose (mostly words; not a pipe row, not a run of numbers),
- the number is precise enough to have been copied (a decimal with three significant
  digits or more: '69.5', '0.139', '5.580%'; or two in a sentence naming the cell's row:
  'PEBBLE reaches 0.92', 'ranking difference 1.9'; not '0.5', nor a count such as '200'),
- no line of the paper that prints data (a table row, parsed or not) holds it, so it is not
  a value of a table or figure the parser did not read as one,
- it is not stated as a change ('an improvement of 6.85% over DNN': a difference of cells
  the check may not have read),
- and a cell is printed at the same precision close to it: within ``NEAR`` (relative) when
  the sentence names the cell's table, row or column, or (in any sentence) within ten units
  of the last printed digit ('5.589%' for '5.580').
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from papermind.domain.paper import Paper
from papermind.grounding.table_numbers import NumberCheck, Value, cell_values

NEAR = 0.1
"""Largest relative distance between a stated number and the cell it is said to misquote."""
_CHANGE_BEFORE = re.compile(r"\b(improv\w*|gain\w*|increas\w*|decreas\w*|reduc\w*|drops?|boost\w*|"
                            r"margin|by|gap)\b(?:[^.;]|\.(?=\d))*$", re.IGNORECASE)
"""A change word before the number in its sentence part ('improvements of 26.4%, 25.20%')."""
_CHANGE_AFTER = re.compile(r"\s*(?:[^\W\d_]+\s+)?(points?|pp|over|higher|lower|better|worse|more|less|"
                           r"improvement|gain|increase|reduction|drop)\b", re.IGNORECASE)
_NUMBER_RUN = re.compile(r"(?:(?<!\S)[-−(]?\d[\d.,]*%?\)?\s+){2}[-−(]?\d[\d.,]*%?\)?(?!\S)")
_ALPHA = re.compile(r"^[^\W\d_][\w'’.\-+/()]*[,;:)]?$")  # 'word', 'state-of-the-art,', 'ResNet-50'


def is_prose(text: str) -> bool:
    """A sentence of words: six or more words (or names: tokens that start with a letter,
    'refer2', 'CDAN+MCC'), most tokens words, no table pipes and no run of three numbers (a
    table row or tick labels printed inside the text)."""
    tokens = text.split()
    if "|" in text or not tokens or _NUMBER_RUN.search(text):
        return False
    words = sum(1 for t in tokens if _ALPHA.match(t.strip("(“\"'")))
    return words >= 6 and words >= 0.6 * len(tokens)


def significant_digits(stated: str) -> int:
    """Significant digits as printed ('0.139': 3, '69.50': 4, '5.580%': 4, '0.5': 1)."""
    digits = "".join(c for c in stated if c.isdigit())
    return len(digits.lstrip("0"))


Printed = dict[tuple[int, int], list[Value]]
"""(page, line) -> the numbers printed on that line, for the lines that are not prose."""


def data_numbers(paper: Paper) -> Printed:
    """The numbers printed on every line of the paper that is not prose (table rows,
    parsed or not; figure labels)."""
    return {(line.page, line.n): values for line in paper.lines()
            if line.text.strip() and not is_prose(line.text)
            and (values := cell_values(line.text))}


def printed_as_data(stated: Value, printed: Printed, own: Iterable[tuple[int, int]] = ()) -> bool:
    """Whether a data line other than the sentence's ``own`` lines prints the number, at its
    precision or finer (the text may round a table's '0.1324' to '0.132'; a tick label '0.13'
    does not hold '0.132')."""
    skip = set(own)
    return any(value.decimals >= stated.decimals and stated.equals(value.value)
               for where, values in printed.items() if where not in skip for value in values)


def worth_flagging(check: NumberCheck, sentence: str, printed: Printed, *, pointed: bool,
                   own: Iterable[tuple[int, int]] = (), row_named: bool = False) -> bool:
    """Whether a ``disagrees`` verdict is evidence of a misquoted table value; ``pointed``:
    the sentence or its paragraph names the cell's table, row or column; ``row_named``: the
    sentence names the cell's row; ``own``: the (page, line) pairs the sentence is printed on."""
    if check.verdict != "disagrees" or check.cell is None or not is_prose(sentence):
        return False
    stated = Value.parse(check.stated)
    digits = significant_digits(check.stated)
    precise = digits >= 3 or (row_named and digits == 2 and stated.decimals >= 1)
    if not precise or stated.decimals == 0:
        return False  # too coarse to have been copied, or a count ('200 epochs', '774M')
    if printed_as_data(stated, printed, own):
        return False
    if check.other is not None:  # a gap no two cells give: judged by table_numbers alone
        return True
    if _stated_as_change(sentence, check.start, len(check.stated)):
        return False  # 'an improvement of 6.85% over DNN': a difference of cells not read
    return any(_close(stated, value, pointed) for value in cell_values(check.cell.text))


def _stated_as_change(sentence: str, start: int, length: int) -> bool:
    """A gain or loss: signed ('+18.28 F1'), after a change word ('an error reduction of
    38.4%') unless given as a value ('improves from 71.2 to 74.8'), or before one."""
    before, after = sentence[max(0, start - 80):start], sentence[start + length:start + length + 24]
    if before.endswith(("+", "±", "+ ", "± ")):
        return True
    change_word = _CHANGE_BEFORE.search(before) and not _from_to(before)
    return bool(change_word or _CHANGE_AFTER.match(after))


def _from_to(before: str) -> bool:
    """'... from 71.2 to' / 'from': the number is a value of the change, not its size."""
    return bool(re.search(r"\b(?:from|to)\s*$", before, re.IGNORECASE))


def _close(stated: Value, cell: Value, pointed: bool) -> bool:
    """Within ``NEAR`` of a cell of the table the sentence names; in a sentence that names
    none, within ten units of the last printed digit (same precision either way)."""
    scaled = cell.value * 100 if stated.percent and not cell.percent and cell.value <= 1 else cell.value
    if cell.decimals != stated.decimals or scaled == 0:
        return False
    last_digits = 0 < abs(stated.value - scaled) < 10.0 ** -stated.decimals * 9.5
    return last_digits or (pointed and abs(stated.value - scaled) / abs(scaled) <= NEAR)
