"""How much of a claim the text at its anchor talks about: the code floor under 'supported'.

A judge model's ``supported`` counts only when the claim is related to the text it cites:
most of the claim's content words (stop words and structure words left out; simple
suffixes folded, so 'improves' meets 'improvement'), and every number and name it states,
occur in the cited text. An off-topic claim that a weak judge calls supported ('the text
reports 92.1% on GLUE' for a title line) falls below the floor and ends ``not_enough`` by
code. Chinese text is compared by character bigrams. Calibrated on the support dev sets
(bench/support_false_alarms.py): honest claims against their own evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from papermind.grounding.text import fold, numbers_in
from papermind.i18n.query_terms import APPARATUS_WORDS, STOP_WORDS
from papermind.i18n.scripts import CJK_LETTERS

FLOOR = 0.3
"""Share of a claim's content words and numbers that must occur at or around its cited text
for 'supported' (and at least one in the cited text itself); calibrated in
bench/results/support_false_alarms.md."""
CLOSE = 0.8
"""Share at which a claim restates its cited text closely (used where no judge runs)."""

_CLAIM_WORDS = frozenset(["based", "cited", "claim", "claims", "finds", "first", "given", "new",
                          "one", "point", "points", "result", "results", "second", "three", "two"])
"""Words a claim uses about its evidence rather than about its subject."""
_STOP = STOP_WORDS | APPARATUS_WORDS | _CLAIM_WORDS
_YEAR = re.compile(r"(?:19|20)\d\d")
"""Years name works and publication dates, which the cited text need not repeat."""
_WORD = re.compile(rf"[a-z][a-z\-']*[a-z]|[{CJK_LETTERS}]+")
_SUFFIXES = ("ation", "ment", "ness", "ity", "ing", "ion", "ied", "er", "est", "ly", "ed",
             "al")


@dataclass(frozen=True)
class Relatedness:
    """How much of a claim its cited text (and the sentences around it) covers."""

    share: float
    """Share of the claim's content words and numbers found (1.0 when it has none)."""
    words: int
    missing: tuple[str, ...]
    anchored: int = 1
    """Content words of the claim in the cited text itself (not only around it)."""

    @property
    def related(self) -> bool:
        return self.share >= FLOOR and (self.anchored > 0 or self.words == 0)

    def reason(self) -> str:
        if self.anchored == 0 and self.words:
            return "the cited text does not hold the claim: none of its content words are there"
        shown = ", ".join(f"'{w}'" for w in self.missing[:5])
        return (f"the cited text does not hold the claim: {len(self.missing)} of its "
                f"{self.words} content words are not there ({shown})")


def stem(word: str) -> str:
    """A crude stem: enough to meet 'improves' with 'improvement', 'scores' with 'score'."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("es") and len(word) > 4 and word[-3] in "sxz":
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[:-len(suffix)]
    return word


def content_keys(text: str) -> list[str]:
    """Stemmed content words of ``text`` (CJK runs as character bigrams), in order, once."""
    keys: dict[str, None] = {}
    for word in _WORD.findall(fold(text)):
        if word[0] in CJK_LETTERS or "\u3400" <= word[0] <= "\u9fff":
            for i in range(max(1, len(word) - 1)):
                keys[word[i:i + 2]] = None
            continue
        for part in word.split("-"):
            part = part.strip("'")
            if len(part) >= 3 and part not in _STOP:
                keys[stem(part)] = None
    return list(keys)


PREFIX = 4
"""Two stems meet when they share their first four letters ('scor' from 'scoring' and
'score'): lenient on purpose, the floor only has to catch claims about something else."""


def _present(key: str, have: set[str], prefixes: set[str], flat: str) -> bool:
    return (key in have or (len(key) >= PREFIX and key[:PREFIX] in prefixes)
            or (len(key) >= 5 and key in flat))


def _mostly_cjk(text: str) -> bool:
    """Written in Chinese or Japanese (a CJK character counts as much as a Latin word)."""
    cjk = sum("\u3400" <= c <= "\u9fff" for c in text)
    latin = sum(c.isascii() and c.isalpha() for c in text)
    return cjk * 3 > latin


def relatedness(claim: str, text: str, around: str = "") -> Relatedness:
    """How much of ``claim`` (content words and numbers) occurs in ``text`` or ``around`` it;
    ``anchored`` counts the content words in ``text`` itself.

    A claim in another script than its text (a Chinese answer about an English paper) is
    measured on what crosses languages unchanged: its numbers and Latin-script words (names,
    acronyms); with none of those it is not measured (share 1.0, no words)."""
    wanted = content_keys(claim)
    if _mostly_cjk(claim) != _mostly_cjk(text):
        wanted = [k for k in wanted if k.isascii()]
    own = set(content_keys(text))
    have = own | set(content_keys(around))
    prefixes = {k[:PREFIX] for k in have if len(k) >= PREFIX}
    flat = fold(f"{text} {around}")
    missing = [w for w in wanted if not _present(w, have, prefixes, flat)]
    own_prefixes = {k[:PREFIX] for k in own if len(k) >= PREFIX}
    anchored = sum(_present(w, own, own_prefixes, fold(text)) for w in wanted)
    numbers = set(numbers_in(f"{text} {around}"))
    claimed = [n for n in dict.fromkeys(numbers_in(claim)) if not _YEAR.fullmatch(n)]
    missing += [n for n in claimed if n not in numbers]
    total = len(wanted) + len(claimed)
    share = 1.0 if total == 0 else 1 - len(missing) / total
    return Relatedness(share=round(share, 3), words=total, missing=tuple(missing),
                       anchored=anchored if wanted else 1)
