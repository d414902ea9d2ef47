"""Whether a number a sentence states and a table cell are the same quantity.

A number close to a cell is evidence of a misquote only when the sentence is about what the
cell holds. The sentence must name the cell's row label, its column header or the table's
metric (a metric word its caption or headers print); and it must not be about something else
the table does not hold:

- a setting of the run (learning rate, decay, batch size, epochs, seeds, dropout, 'we set',
  'we use' ... in the number's clause) read against a table of results,
- a condition the table has no column or row for ('on 60K tokens' where the columns are
  '48K' and '193K'),
- an aggregate the table does not print ('on average', 'overall' with no such row),
- a sum of cells of one column or row (a caption's 73% that is 62% + 11%).

``naming`` says what the sentence names; ``pinned`` (row and column, or a row or column
with one value) is what a HIGH finding needs, a looser naming gives MEDIUM.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Literal

from papermind.grounding.table_numbers import CellRef, TableView, Value, mentions

METRIC = re.compile(
    r"\b(acc(?:uracy)?|error|err|f1|f-score|bleu|rouge(?:-\w+)?|meteor|precision|recall|auc|"
    r"auroc|loss|perplexity|ppl|nll|likelihood|n?mse|n?mae|n?rmse|fid|psnr|ssim|lpips|wer|cer|"
    r"em|exact match|map|ndcg|mrr|hits|reward|return|success rate|win rate|score|kl|ess|"
    r"correlation|spearman|pearson|kendall|iou|miou|dice|top-?[15])\b", re.IGNORECASE)
"""Words that name what a results table measures."""
ALIASES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), m) for p, m in (
    (r"\broot[- ]mean[- ]squared?[- ]error\b", "rmse"),
    (r"(?<!root )\bmean[- ]squared?[- ]error\b", "mse"),
    (r"\bmean[- ]absolute[- ]error\b", "mae"),
    (r"\bnegative[- ]log[- ]likelihood\b", "nll"),
    (r"\barea under the (?:roc )?curve\b", "auc"),
    (r"\bword[- ]error[- ]rate\b", "wer"),
    (r"\bmean[- ]average[- ]precision\b", "map"),
    (r"\bkullback[- ]leibler\b", "kl"),
))
"""Long forms of metrics, read as their short names ('normalised root mean square error'
names the column 'nRMSE [%]')."""
SETTING = re.compile(
    r"\b(learning[- ]rates?|lr|(?:weight\s+)?decay|momentum|batch(?:[- ]sizes?)?|epochs?|"
    r"steps?|iterations?|seeds?|dropout|warm-?up|temperature|schedul\w*|optimi[sz]er|adam\w*|"
    r"sgd|beta|epsilon|lambda|alpha|gamma|coefficients?|thresholds?|hyper-?parameters?|"
    r"clipp?\w*|ema|timesteps?|discount(?:\s+factor)?|"
    r"set\s+to|we\s+(?:set|use|used|chose|choose|fix|fixed)|(?:is|are|was|were)\s+set|"
    r"initiali[sz]ed|[α-ωλ]\s*=)", re.IGNORECASE)
"""Words of a sentence (or clause) that gives a setting of the run, not a result."""
_CLAUSE = re.compile(r"[,;:•]|\band\b|\bwhile\b|\bwhereas\b")
_AGGREGATE = re.compile(r"\b(on average|averaged\s+(?:over|across)|(?:average|mean)\s+(?:of|over|across)|"
                        r"overall|in total|across all)\b", re.IGNORECASE)
"""An aggregate of the table's cells ('on average', 'overall'); not a metric's name ('root
mean square error', 'average precision')."""
_SHAPED = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?[A-Za-z%]{1,3}\b")
_COUNTED = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s+(?:[a-z-]+\s+)?([a-z]{3,}s)\b")
"""A count of things ('388 questions', '1,004 test questions')."""


Strength = Literal["pinned", "named", "metric"]


@dataclass(frozen=True)
class Naming:
    """What of the cell the sentence names."""

    row: bool
    column: bool
    metric: bool
    pinned: bool

    @property
    def any(self) -> bool:
        return self.row or self.column or self.metric

    @property
    def strength(self) -> Strength:
        """'pinned' (the one cell), 'named' (its row or column), 'metric' (only what the
        table measures, which every cell of it may share)."""
        return "pinned" if self.pinned else "named" if self.row or self.column else "metric"


def naming(sentence: str, view: TableView, cell: CellRef) -> Naming:
    """Whether the sentence names the cell's row, column, the table's metric, and whether
    that pins the one cell."""
    row = any(mentions(sentence, x) for x in view.row_labels.get(cell.row, []))
    said = _metric_words(sentence)
    by_metric = {c for c, labels in view.column_labels.items()
                 if said & _metric_words(" ".join(labels))}
    column = any(mentions(sentence, x) for x in view.column_labels.get(cell.column, [])) or \
        by_metric == {cell.column}  # the one column whose header names that metric
    metric = bool(said & _metric_words(_described(view)))
    in_row = {c.column for c in view.cells if c.values and c.row == cell.row}
    in_column = {c.row for c in view.cells if c.values and c.column == cell.column}
    pinned = (row and column) or (row and len(in_row) == 1) or (column and len(in_column) == 1)
    return Naming(row, column, metric, pinned)


def about_something_else(sentence: str, start: int, view: TableView, cell: CellRef,
                         names: Naming) -> bool:
    """Whether the number at ``start`` is a setting, a condition the table lacks, or an
    aggregate it does not print (so not the cell's quantity)."""
    if is_setting(sentence, start) and not settings_table(view):
        return True
    if _other_condition(sentence, view) or _other_population(sentence, view):
        return True
    labels = " ".join(view.column_labels.get(cell.column, []))
    return bool(_AGGREGATE.search(sentence)) and not names.row and not _AGGREGATE.search(labels)


def is_setting(sentence: str, start: int) -> bool:
    """Whether the clause that states the number at ``start`` gives a setting of the run
    ('decay rate 0.995', 'we use 0.995', '0.995 EMA decay'; not '74.8 after 200 epochs')."""
    clause_start = max((m.end() for m in _CLAUSE.finditer(sentence, 0, start)), default=0)
    number = re.match(r"\S+", sentence[start:])
    after = sentence[start + (number.end() if number else 0):]
    clause_end = _CLAUSE.search(after)
    named_after = " ".join((after[:clause_end.start()] if clause_end else after).split()[:2])
    return bool(SETTING.search(sentence[clause_start:start]) or SETTING.search(named_after))


def settings_table(view: TableView) -> bool:
    """A table of settings (its caption or headers name hyper-parameters), not of results."""
    return bool(SETTING.search(view.caption)) and not METRIC.search(view.caption)


def sum_of_cells(stated: Value, view: TableView) -> bool:
    """Whether two cells of one column or one row add up to the number (or three, in a
    column or row of at most 16 values)."""
    lines: dict[tuple[str, int], list[float]] = {}
    for c in view.cells:
        if len(c.values) == 1 and c.values[0].value:
            v = c.values[0]
            scaled = v.value * 100 if stated.percent and not v.percent and v.value <= 1 else v.value
            lines.setdefault(("c", c.column), []).append(scaled)
            lines.setdefault(("r", c.row), []).append(scaled)
    for values in lines.values():
        for k in (2, 3) if len(values) <= 16 else (2,):
            if any(stated.equals(sum(group)) for group in combinations(values[:60], k)):
                return True
    return False


def _other_condition(sentence: str, view: TableView) -> bool:
    """The sentence names a value shaped like the table's headers ('60K' beside '48K',
    '193K') that no header holds: another setting than the table's. The first row with
    values counts as headers too (an extractor often reads a second header row as data)."""
    first = min((c.row for c in view.cells if c.values), default=-1)
    headers = [x for labels in view.column_labels.values() for x in labels] + \
        [x for labels in view.row_labels.values() for x in labels] + \
        [c.text for c in view.cells if c.row == first]
    shapes = {_shape(m.group()) for h in headers for m in _SHAPED.finditer(h)}
    printed = {m.group().replace(" ", "").casefold() for h in headers for m in _SHAPED.finditer(h)}
    return any(_shape(m.group()) in shapes and m.group().replace(" ", "").casefold() not in printed
               for m in _SHAPED.finditer(sentence) if not m.group().endswith("%"))


def _other_population(sentence: str, view: TableView) -> bool:
    """The sentence counts a population the caption counts otherwise ('for these 388
    questions' where the caption says 'on the 1,004 test questions'): a subset's numbers."""
    table = {noun: count for count, noun in _counted(view.caption)}
    return any(noun in table and count != table[noun] for count, noun in _counted(sentence))


def _counted(text: str) -> list[tuple[int, str]]:
    return [(int(m.group(1).replace(",", "")), m.group(2).casefold())
            for m in _COUNTED.finditer(text)]


def _shape(text: str) -> str:
    return re.sub(r"\d+(?:\.\d+)?", "9", text.replace(" ", "")).casefold()


@lru_cache(maxsize=4096)
def _metric_words(text: str) -> frozenset[str]:
    """The metrics a text names, by short name ('nRMSE' and 'root mean square error': rmse);
    cached, as a table's caption and headers are read for every number near one of its cells."""
    words = {m.group().casefold() for m in METRIC.finditer(text)}
    words = {w[1:] if w in ("nmse", "nmae", "nrmse") else w for w in words}
    return frozenset(words | {short for pattern, short in ALIASES if pattern.search(text)})


def _described(view: TableView) -> str:
    return " ".join([view.caption, *(x for labels in view.column_labels.values() for x in labels)])
