"""Claims that one table row beats another, read against the table: 'A outperforms B'.

Model-free. A prose sentence about a table (it or its paragraph names the table) with a
claim verb (grounding/comparisons) names the row it
says is better before the verb and the row it beats after it, each by a label only that
row of a parsed table carries (grounding/table_labels). Their one-value cells are compared
in the columns the sentence names (else in every column both rows fill, leaving out
settings such as '# epochs'), each column read the way its metric is better (its header's
words, else the sentence's, else higher). The claim is flagged only when every compared
column shows the opposite: 'A outperforms B on mean' where the table prints A 55.59 and B
67.62 for 'mean'. Mixed results, ties, denied claims ('does not outperform') and hedged ones
('we expected A to outperform B') are left alone.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.paper import Paper
from papermind.grounding.comparisons import (
    CLAIM_VERB,
    HEDGED,
    NEGATED,
    NOT_A_METRIC,
    metric_direction,
)
from papermind.grounding.number_guards import is_prose
from papermind.grounding.paper_numbers import sentence_contexts, sentences, span_anchor
from papermind.grounding.table_labels import column_names, named_cells, row_names, transposed
from papermind.grounding.table_numbers import TableView, Value, mentions

_CLAUSE_END = re.compile(r"[;:]|,\s*(?:while|whereas|but|and)\b|\bwhile\b|\bwhereas\b")
_WORD = re.compile(r"[^\W_]+")
_SETTING_ROW = re.compile(r"#|param|epoch|batch|\bsize\b|seed|year|count", re.IGNORECASE)
"""Row labels of a transposed table that are settings (NOT_A_METRIC would also take
variants such as '+ N' or '1-step' for settings)."""


class ClaimFinding(Frozen):
    """A sentence saying one row beats another that the table shows behind it."""

    sentence: str
    sentence_anchor: Anchor = Field(description="where the claim verb is printed")
    table_number: str
    winner: str = Field(description="the row label the sentence says is better")
    loser: str = Field(description="the row label it says is beaten")
    columns: list[str] = Field(description="the columns compared, with both values")


class _Mention(NamedTuple):
    start: int
    end: int
    row: int


def claim_findings(paper: Paper) -> list[ClaimFinding]:
    """Sentences claiming a row of a table beats another where the table says otherwise."""
    findings = []
    for paragraph, views, named in sentence_contexts(paper):
        for offset, sentence in sentences(paragraph.text):
            about = views if named else [v for v in views if v.number and
                                         f"table {v.number.casefold()}" in sentence.casefold()]
            if not about or not is_prose(sentence):
                continue
            for verb in CLAIM_VERB.finditer(sentence):
                if NEGATED.search(sentence[:verb.start()]) or HEDGED.search(sentence[:verb.start()]):
                    continue
                better = verb.group("better") is not None
                judged = next((j for view in about for v, flipped in ((view, False),
                                                                      (transposed(view), True))
                               if (j := _judge(sentence, verb.start(), verb.end(), better, v,
                                               flipped))), None)
                if judged is not None:
                    at = offset + verb.start()
                    anchor = span_anchor(paper, paragraph, at, at + len(verb.group()))
                    findings.append(judged.model_copy(update={"sentence_anchor": anchor}))
                    break
    return findings


def _judge(sentence: str, start: int, end: int, better: bool,
           view: TableView, flipped: bool = False) -> ClaimFinding | None:
    """The finding for a claim read on ``view`` (``flipped``: a table with one method per
    column, read transposed; its 'columns' are the original rows, variants of the setting
    such as '+ N' or '1-step', of which only settings rows are left out)."""
    rows = row_names(view)
    found = _mentions(sentence, rows)
    before = [m for m in found if m.end <= start]
    stop = _CLAUSE_END.search(sentence, end)
    after = [m for m in found if m.start >= end and (stop is None or m.start < stop.start())]
    if not before or not after or before[-1].row == after[0].row:
        return None
    subject, rival = before[-1].row, after[0].row
    values = {(c.row, c.column): c.value for c in named_cells(view)
              if c.row in (subject, rival) and c.value is not None}
    headers = {c: " ".join(labels) for c, labels in view.column_labels.items()}
    shared = [c for c in sorted(headers) if (subject, c) in values and (rival, c) in values
              and not (_SETTING_ROW if flipped else NOT_A_METRIC).search(headers[c])]
    names = column_names(view)
    clause = sentence[:stop.start()] if stop else sentence
    named = [c for c in shared if c in names and mentions(clause, names[c])]
    compared = named or shared
    if not compared:
        return None
    ahead = [_ahead(values[subject, c], values[rival, c], headers[c], view.caption, clause)
             for c in compared]
    if not all(a is not None and a != better for a in ahead):
        return None
    winner, loser = rows[subject], rows[rival]
    return ClaimFinding(
        sentence=sentence, sentence_anchor=Anchor(paper_id="", page=1, line_start=1, line_end=1),
        table_number=view.number or "", winner=winner, loser=loser,
        columns=[f"{names.get(c, headers[c])}: {winner} {values[subject, c].value:g} vs. "
                 f"{loser} {values[rival, c].value:g}" for c in compared])


def _ahead(mine: Value, theirs: Value, header: str, caption: str, clause: str) -> bool | None:
    """Whether ``mine`` is the better value of the column (None: a tie): the way its header
    says, else the table's caption, else the claim's own clause, else higher."""
    if mine.value == theirs.value:
        return None
    direction = metric_direction(header) or metric_direction(caption) or \
        metric_direction(clause) or "higher"
    return mine.value > theirs.value if direction == "higher" else mine.value < theirs.value


def _mentions(sentence: str, rows: dict[int, str]) -> list[_Mention]:
    """Where the sentence names each row, a longer label winning over one inside it
    ('CDAN w/ SDAT' over 'CDAN'), in order."""
    spans = []
    for row, label in rows.items():
        words = _WORD.findall(label)
        if not words:
            continue
        flags = 0 if len(label) <= 3 else re.IGNORECASE
        pattern = r"(?<![^\W_])" + r"[\W_]*".join(map(re.escape, words)) + r"(?![^\W_])"
        spans += [_Mention(m.start(), m.end(), row) for m in re.finditer(pattern, sentence, flags)]
    kept = [s for s in spans if not any(o != s and o.start <= s.start and s.end <= o.end
                                        and o.end - o.start > s.end - s.start for o in spans)]
    return sorted(kept)
