"""The same quantity with another value: a claim's number whose neighbouring words name what
a number of the cited text counts ('37% of the papers do not evaluate ...' against '73% of
the papers do not evaluate ...') contradicts it, whatever else the sentences say.

A number's quantity is read from the content words right after it, up to the next number
(what it counts: '73% *of the papers do not evaluate*', '1,204 *questions about*'); two
numbers name the same quantity when at least two of those words meet. Only one cited number
may be the best match: two equally good ones leave the claim to the other checks. Measured
on honest claims (bench/support_false_alarms.py): one shared word, or the words before a
number, called honest claims contradicted ('top 1,000 words' against a table's '10,000
words' of another experiment)."""

from __future__ import annotations

from collections.abc import Iterable

from papermind.grounding.numbers import NUMERIC, comparable, number_supported

AFTER = 4
"""Content words after a number that say what it counts."""
_FUNCTION = frozenset({
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or",
    "as", "is", "are", "was", "were", "be", "been", "that", "this", "these", "those", "it",
    "its", "their", "our", "we", "they", "than", "about", "around", "roughly", "nearly",
    "almost", "approximately", "only", "just", "all", "some", "over", "under", "up"})


def differing_values(claim: list[str], text: list[str], *, min_shared: int = 2
                     ) -> list[tuple[str, str]]:
    """(claim number, text number) pairs naming the same quantity with different values,
    from comparison keys (``norm_words``); ``min_shared`` words must meet."""
    found = []
    for i, ours in enumerate(claim):
        if not NUMERIC.fullmatch(ours):
            continue
        mine = _quantity(claim, i)
        scored = sorted(((len(mine & _quantity(text, j)), theirs) for j, theirs in enumerate(text)
                         if NUMERIC.fullmatch(theirs) and _same_kind(ours, theirs)), reverse=True)
        tied = len(scored) > 1 and scored[1][0] == scored[0][0]
        if not scored or scored[0][0] < min_shared or tied:
            continue
        theirs = scored[0][1]
        if not number_supported(ours, [theirs]) and not number_supported(theirs, [ours]):
            found.append((ours, theirs))
    return found


def _same_kind(a: str, b: str) -> bool:
    """Two percentages or two plain values (a year is not a count, a label not a value)."""
    return comparable(a, b) and a.endswith("%") == b.endswith("%") and _year(a) == _year(b)


def _year(number: str) -> bool:
    return number.isdigit() and len(number) == 4 and number[:2] in ("19", "20")


def _quantity(words: list[str], at: int) -> set[str]:
    """The content words after ``words[at]`` that say what the number counts."""
    return set(_content(words[at + 1:], AFTER))


def _content(words: Iterable[str], limit: int) -> list[str]:
    out: list[str] = []
    for w in words:
        if NUMERIC.fullmatch(w) or w in (".", ","):
            break  # another number's words are not this one's
        if w in _FUNCTION or len(w) < 2:
            continue
        out.append(w[:-1] if len(w) > 3 and w.endswith("s") else w)
        if len(out) == limit:
            break
    return out
