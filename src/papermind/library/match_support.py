"""Whether a library-wide hybrid search found a match or only a shared word.

'recipe for chocolate chip cookies with brown butter' over a paper about generating recipes:
BM25 finds 'recipes' and ranks that paper first, and the dense side, though over the
relevance floor, is no closer than it is for any question about the library's field. One
query word in common, with a dense side that does not stand out, is not a match: the search
says "no good match". A query of one or two content words is exempt (a keyword search means
its word), and so is Chinese and Japanese text (its words are not space-separated)."""

from __future__ import annotations

from collections.abc import Sequence

from papermind.i18n.query_terms import content_words
from papermind.i18n.scripts import has_cjk
from papermind.library.query import WORD

MIN_TERMS = 3
"""Content words a query needs before one shared word can be too few."""
DENSE_MARGIN = 0.04
"""How far over the relevance floor the best dense cosine must be to support a match alone
(an e5 cosine: off-topic questions sit 0-0.03 over the floor, bench/results/relevance_floor.md)."""
TOP = 5
"""Hits whose words are compared with the query's."""
_KEY = 5
"""Words meet on their first five letters ('recipe' and 'recipes', 'evaluation' and
'evaluate')."""
_RATING = frozenset(["best", "better", "good", "great", "bad", "worst", "new", "next", "first",
                     "last", "main", "top", "right", "easy", "quick", "simple", "typical",
                     "usual", "common"])
"""Words that rate or order what a question is about without naming it ('the best recipe'):
sharing one of them is not sharing the topic."""


def terms(text: str) -> set[str]:
    """The comparison keys of the content words of ``text``."""
    return {_key(w) for w in content_words(WORD.findall(text))
            if len(w) > 1 and w.lower() not in _RATING}


def single_shared_word(query: str, hits: Sequence[str]) -> bool:
    """Whether the query has enough content words and none of ``hits`` shares more than one."""
    if has_cjk(query):
        return False
    wanted = terms(query)
    if len(wanted) < MIN_TERMS:
        return False
    return all(len(wanted & terms(text)) <= 1 for text in hits)


def _key(word: str) -> str:
    return word.lower()[:_KEY]
