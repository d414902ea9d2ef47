"""Which QASPER questions have a gold passage, and which search hits hold it
(bench/search_quality.py).

- ``strict``: the answer, whitespace and case normalised, occurs in exactly one paragraph;
  a hit contains it.
- ``widened``: strict, or every item of the answer (split at commas, semicolons, new lines
  and "and"; items of >= 3 characters) occurs, as bare words (NFKC, lower case, punctuation
  dropped), in one paragraph or two; a hit contains every item. This adds list answers
  ("copy, copy-marked, copy-dummies") and answers a paper states twice, not paraphrases.
- ``lenient``: strict, or >= 80% of the answer's words in some paragraph; a hit holds >= 80%.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

Gold = Callable[[str, str], bool]
"""Whether a hit (text, paper id) holds the answer."""
_TOKENS = re.compile(r"[a-z0-9]+")


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def qasper_gold(kind: str, answer: str, texts: Sequence[str]) -> Gold | None:
    """The gold test of one answer, or None when the answer has none of that kind."""
    gold = norm(answer)
    if len(gold) >= 3 and sum(gold in t for t in texts) == 1:
        return lambda text, _pid: gold in norm(text)
    if kind == "widened" and (parts := answer_parts(answer)):
        bare = [bare_text(t) for t in texts]
        if 1 <= sum(all(p in t for p in parts) for t in bare) <= 2:
            return lambda text, _pid: all(p in bare_text(text) for p in parts)
    if kind == "lenient" and len(words := set(_TOKENS.findall(gold))) >= 2 and \
            sum(overlap(words, t) >= 0.8 for t in texts) >= 1:
        return lambda text, _pid: overlap(words, norm(text)) >= 0.8
    return None


def bare_text(text: str) -> str:
    """Lower-case words and numbers only (NFKC), single spaces, padded: ' a b '."""
    words = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower())
    return f" {' '.join(words)} "


def answer_parts(answer: str) -> list[str]:
    """The items of a list answer ('a, b and c'; one item when it is no list), bare."""
    items = (bare_text(p) for p in re.split(r"[,;\n]|\band\b", answer))
    return [item for item in items if len(item.strip()) >= 3]


def overlap(words: set[str], text: str) -> float:
    """Share of the answer's words found in ``text``."""
    return len(words & set(_TOKENS.findall(text))) / len(words)


