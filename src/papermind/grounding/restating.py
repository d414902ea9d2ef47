"""Which sentences of the cited text a claim restates, and the small edits between them.

The comparing checks (negation, comparison direction, a swapped number) only make sense
where the claim says the same thing as the text: a negation in another sentence of the
cited span says nothing about the claim. So each sentence of the claim is aligned to the
window of one or two consecutive cited sentences that holds most of its content words;
only a *strong* alignment (most content words there, a window not much longer than the
claim sentence or holding the claim nearly word for word) is compared, against the stretch of those sentences the claim spans. A
claim sentence without one is left to the checker model.
The small edits between the two are compared (``edits``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from papermind.grounding.edits import matched_share, projected
from papermind.grounding.numbers import NUMERIC
from papermind.grounding.polarity import NEGATIONS, direction
from papermind.grounding.text import norm_token, norm_words
from papermind.i18n.scripts import is_cjk

MIN_COVERAGE = 0.7
"""Share of a claim sentence's content words the aligned window must hold."""
MIN_CONTENT = 2
MIN_RUN = 0.8
"""In a cited sentence much longer than the claim sentence, the share of the claim's words
that must align in runs to the stretch it spans ('BBS recovers 74.1% of the gold evidence'
inside a 30-word sentence that says 71.4%)."""
"""Content words a claim sentence needs before it can be aligned at all."""
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(\[\"'])|(?<=[\u3002\uff01\uff1f\uff1b])\s*")
_OPENER = re.compile(r"\W*([A-Z][a-z]{2,}(?:-[A-Za-z]+)?)\b")
_FUNCTION = frozenset({
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or",
    "but", "as", "is", "are", "was", "were", "be", "been", "being", "this", "that", "these",
    "those", "it", "its", "their", "there", "than", "then", "so", "such", "which", "who",
    "whom", "whose", "what", "when", "where", "while", "we", "our", "they", "them", "he",
    "she", "his", "her", "has", "have", "had", "do", "does", "did", "can", "could", "will",
    "would", "should", "may", "might", "must", "also", "into", "over", "under", "about",
    "between", "both", "each", "all", "any", "some", "most", "other", "only", "very", "much",
    "many", "well", "just"})


@dataclass(frozen=True, slots=True)
class Restatement:
    """A claim sentence and the cited sentences it restates (comparison keys of both)."""

    claim: list[str]
    text: list[str]
    coverage: float
    cited: str
    openers: dict[str, str]
    """Capitalised words opening a claim sentence, by comparison key."""


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (whitespace flattened)."""
    return [s for s in SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def content_keys(words: list[str]) -> set[str]:
    """Content words of comparison keys (negations left out, a plural 's' dropped; a number
    stands for any number, a comparison word for its axis: 'higher' and 'lower' are one)."""
    keys = set()
    for w in words:
        short = len(w) < 3 and not any(c.isdigit() for c in w) and not is_cjk(w[:1])
        if w in _FUNCTION or w in NEGATIONS or short:  # a Chinese character is a content unit
            continue
        axis = direction(w)
        keys.add("~number" if NUMERIC.fullmatch(w) else f"~{axis[0]}" if axis
                 else w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return keys


def claim_units(claim: str) -> list[tuple[list[str], dict[str, str]]]:
    """The claim's sentences as comparison keys (with their capitalised opening words), a
    sentence with too few content words joined to the next (a line fragment
    '... magnitude. We now ...' stays one unit)."""
    units: list[tuple[list[str], dict[str, str]]] = []
    words: list[str] = []
    openers: dict[str, str] = {}
    for sentence in sentences(claim):
        words += norm_words(sentence)
        first = _OPENER.match(sentence)
        if first:
            openers[norm_token(first.group(1))] = first.group(1)
        if len(content_keys(words)) >= MIN_CONTENT:
            units.append((words, openers))
            words, openers = [], {}
    if words and units:
        units[-1][0].extend(words)
        units[-1][1].update(openers)
    elif words:
        units.append((words, openers))
    return units


def restatements(claim: str, cited: str) -> list[Restatement]:
    """Strong alignments of the sentences of ``claim`` to those of ``cited``."""
    parts = sentences(cited)
    windows = [" ".join(parts[i:i + n]) for n in (1, 2, 3) for i in range(len(parts) - n + 1)]
    keyed = [(w, k, content_keys(k)) for w, k in ((w, norm_words(w)) for w in windows)]
    found = []
    for words, openers in claim_units(claim):
        wanted = content_keys(words)
        if len(wanted) < MIN_CONTENT or not keyed:
            continue
        coverage, _, window, keys = max(
            ((_coverage(wanted, have), -abs(len(k) - len(words)), w, k) for w, k, have in keyed),
            key=lambda t: (t[0], t[1]))
        stretch = projected(words, keys)
        close = len(keys) <= 2 * len(words) + 12 or matched_share(words, stretch) >= MIN_RUN
        if coverage >= MIN_COVERAGE and close:
            found.append(Restatement(words, stretch, coverage, window, openers))
    return found


def _coverage(wanted: set[str], have: set[str]) -> float:
    """Share of ``wanted`` in ``have``; a word cut at a line break ('suf-' of 'sufficient',
    'able' of 'invalu-able') counts when a word there starts or ends with it."""
    missing = [w for w in wanted - have if not (
        len(w) >= 3 and any(h.startswith(w) or h.endswith(w) for h in have))]
    return 1 - len(missing) / len(wanted)
