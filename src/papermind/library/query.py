"""Query enhancement for the usual questions about papers.

A question such as "What datasets do the authors use for evaluation?" becomes BM25 keywords
(question words, stop words and paper boilerplate removed, a few domain expansions added) and
a section prior (dataset questions favour method/experiments sections, "related work"
questions favour the related-work section...). Dense search embeds the question as asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from papermind.domain import SectionKind
from papermind.i18n.query_terms import content_words, glossary_terms
from papermind.i18n.scripts import CJK_LETTERS

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-+.]*[A-Za-z0-9+]|[A-Za-z0-9]"
                  f"|[{CJK_LETTERS}]+")  # CJK runs: the full-text index segments them

_EXPANSIONS: dict[str, tuple[str, ...]] = {
    "dataset": ("data", "corpus"), "datasets": ("data", "corpora"),
    "corpus": ("dataset",), "size": ("number",), "big": ("size",), "large": ("size",),
    "baseline": ("compare",), "baselines": ("compare",), "languages": ("language",),
    "accuracy": ("score",), "improvement": ("improve", "outperform"),
    "annotated": ("annotation", "annotators"), "annotation": ("annotators", "annotated"),
    "evaluate": ("evaluation",), "evaluated": ("evaluation",), "metrics": ("metric",),
}

_PRIORS: list[tuple[re.Pattern[str], dict[SectionKind, float]]] = [
    (re.compile(r"\b(data ?sets?|corpus|corpora|annotat\w*|collect\w*|size|how many|"
                r"how big|how large)\b", re.I),
     {"method": 1.25, "experiments": 1.25, "results": 1.1}),
    (re.compile(r"\b(baselines?|compar\w*|outperform\w*|results?|accuracy|perform\w*|"
                r"scores?|f1|bleu|improv\w*|state[- ]of[- ]the[- ]art|best)\b", re.I),
     {"experiments": 1.25, "results": 1.3, "discussion": 1.1}),
    (re.compile(r"\b(architecture|model|algorithm|train\w*|features?|loss|how do)\b", re.I),
     {"method": 1.2, "experiments": 1.1}),
    (re.compile(r"\b(related|previous|prior|existing) (work|approach\w*|method\w*)\b", re.I),
     {"related_work": 1.5}),
    (re.compile(r"\b(limitations?|future work|weakness\w*)\b", re.I),
     {"conclusion": 1.4, "discussion": 1.4}),
]
_DEFAULT_PRIOR: dict[SectionKind, float] = {"acknowledgements": 0.5, "references": 0.5}


@dataclass(frozen=True)
class QueryPlan:
    """How one query is searched."""

    text: str = ""
    keywords: list[str] = field(default_factory=list)
    dense_text: str = ""
    section_prior: dict[SectionKind, float] = field(default_factory=dict)

    def prior(self, kind: SectionKind) -> float:
        return self.section_prior.get(kind, 1.0)


def plain_plan(query: str) -> QueryPlan:
    """No enhancement: every word is a keyword, no section prior."""
    return QueryPlan(text=query, keywords=WORD.findall(query), dense_text=query)


def analyse(query: str) -> QueryPlan:
    """Keywords, expansions and section prior for ``query``."""
    words = WORD.findall(query)
    keywords = content_words(words)
    if not keywords:  # a query made only of stop words: keep it as it is
        keywords = words
    expanded = list(keywords)
    for word in keywords:
        expanded.extend(_EXPANSIONS.get(word.lower(), ()))
    expanded += glossary_terms(query)  # bilingual terms for BM25
    prior: dict[SectionKind, float] = dict(_DEFAULT_PRIOR)
    for pattern, boosts in _PRIORS:
        if pattern.search(query):
            for kind, boost in boosts.items():
                prior[kind] = max(prior.get(kind, 1.0), boost)
    return QueryPlan(text=query, keywords=list(dict.fromkeys(expanded)), dense_text=query,
                     section_prior=prior)
