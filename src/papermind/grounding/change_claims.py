"""Changes said to go one way whose numbers go the other: 'the error decreases from 0.31 to
0.42', 'ZO-AE-DS degrades the accuracy from 5.06% to 35.5%'.

Model-free. A prose sentence with a change verb (grounding/comparisons: increase, reduce,
improve, degrade...) followed in its clause by 'from A to B' is flagged when B - A has the
opposite sign: for more/less verbs directly, for better/worse verbs ('improves',
'degrades') read the way the sentence's metric is better (its words, else higher). Not
about tables, so it reads every body paragraph.
"""

from __future__ import annotations

import re

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.paper import Paper
from papermind.grounding.comparisons import FALL, HEDGED, JUDGING, NEGATED, RISE, metric_direction
from papermind.grounding.number_guards import is_prose
from papermind.grounding.paper_numbers import sentences, span_anchor
from papermind.grounding.table_numbers import Value

_NUM = r"[-−]?\d+(?:\.\d+)?%?"
_WORD = re.compile(r"\b[A-Za-z]+\b")
_FROM_TO = re.compile(rf"(?P<between>[^.;:,()]{{0,80}}?)\bfrom\s+(?P<a>{_NUM})\s*(?:%\s*)?"
                      rf"to\s+(?P<b>{_NUM})(?![\w.]\d)")


_RANGE = re.compile(r"^(?:rang\w*|var(?:y|ies|ied|ying)|span\w*|spread)$", re.IGNORECASE)
"""'the reduction ranged from 29.7 to 48.3': a range of sizes, not a change."""


class ChangeFinding(Frozen):
    """A sentence whose change verb and 'from A to B' disagree."""

    sentence: str
    sentence_anchor: Anchor = Field(description="where the change verb is printed")
    verb: str
    before: str
    after: str


def change_findings(paper: Paper) -> list[ChangeFinding]:
    """Sentences saying a number rose (or improved) where it fell, or the reverse."""
    out = []
    for paragraph in paper.paragraphs:
        for offset, sentence in sentences(paragraph.text):
            if not is_prose(sentence):
                continue
            for word in _WORD.finditer(sentence):
                verb = word.group()
                span = _FROM_TO.match(sentence, word.end())
                if span is None or not _contradicts(verb, span, sentence) or \
                        NEGATED.search(sentence[:word.start()]) or \
                        HEDGED.search(sentence[:word.start()]):
                    continue
                at = offset + word.start()
                out.append(ChangeFinding(
                    sentence=sentence, sentence_anchor=span_anchor(paper, paragraph, at, at + len(verb)),
                    verb=verb, before=span.group("a"), after=span.group("b")))
                break
    return out


def _contradicts(verb: str, match: re.Match[str], sentence: str) -> bool:
    up, down = bool(RISE.match(verb)), bool(FALL.match(verb))
    between = [w.group() for w in _WORD.finditer(match.group("between"))]
    if up == down or any(RISE.match(w) or FALL.match(w) for w in between):
        return False  # another change verb is nearer to the numbers
    if any(_RANGE.match(w) for w in between):
        return False
    a, b = Value.parse(match.group("a")).value, Value.parse(match.group("b")).value
    if a == b:
        return False
    rose = b > a
    if JUDGING.match(verb) and metric_direction(sentence) == "lower":
        rose = not rose  # an error improves by falling
    return rose != up
