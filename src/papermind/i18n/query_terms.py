"""The words of a question or claim that carry its topic: one analyser for every caller.

Library search (BM25 keywords), the QA workflow's keywords, the relatedness floor under
'supported', the review panel's issue matching and the related-work queries all leave out
the same English stop words: function words, and the words questions and papers use about
themselves ('paper', 'authors', 'propose', 'method'...). Words of a paper's apparatus
('section', 'table', 'et al.') are a second set, for callers that compare prose rather
than look things up (a search for 'Table 2' keeps 'table'). Chinese questions get the
glossary's English terms (they search English papers), and Chinese function words are left
out of segmented queries. The lists sit here, below library and workflows, so both use
them without a port.
"""

from __future__ import annotations

from collections.abc import Iterable

from papermind.i18n.glossary import english_terms
from papermind.i18n.scripts import has_cjk

_STOP_TEXT = """
a about above after again against all also am an and any are aren't as at be because been
before being below between both but by can could did do does doing done down during each either
few for from further had has have having he her here hers him his how however i if in into is
it its itself just kind kinds let like many may me might more most much must my no nor not of
off on once only or other our ours out over own per same she should so some such than that the
their theirs them then there these they this those through to too type types under until up
upon us very via was way ways we well were what when where whether which while who whom whose
why will with within would you your yes
paper papers author authors propose proposed present presented work works approach study
studies method methods describe described mention mentioned use uses used using show shows
shown find found report reports reported consider considered
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
"""English stop words: function words and the words a question or paper uses about itself."""

APPARATUS_WORDS = frozenset(["section", "table", "figure", "fig", "tab", "eq", "equation", "appendix", "et", "al", "line", "lines", "text"])
"""Words of a paper's apparatus: they name where something is, not what it says."""

_CHINESE_STOP_TEXT = """的 了 是 在 和 与 及 或 等 中 对 为 以 由 于 将 把 被 从 这 那 其 之 也 就 都 而
什么 哪些 哪个 如何 怎么 怎样 为什么 是否 多少 本文 文中 论文 这篇 作者 我们 一个
以及 进行 使用 采用 通过 可以 哪里 有 吗 呢"""
CHINESE_STOP_WORDS = frozenset(_CHINESE_STOP_TEXT.split())
"""Chinese function words that carry no topic (dropped from segmented queries)."""


def is_stop_word(word: str) -> bool:
    """An English stop word, in any case."""
    return word.lower() in STOP_WORDS


def content_words(words: Iterable[str]) -> list[str]:
    """``words`` without the stop words, in order (repeats kept)."""
    return [w for w in words if not is_stop_word(w)]


def glossary_terms(text: str) -> list[str]:
    """English terms for a Chinese question's glossary words (none for other text)."""
    return english_terms(text) if has_cjk(text) else []
