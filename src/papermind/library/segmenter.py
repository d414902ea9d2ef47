"""Word segmentation of Chinese and Japanese text for BM25 (any full-text backend).

SQLite's ``unicode61`` tokenizer (and most others) treats a run of Han characters up to the
next punctuation mark as one token, so a question shares no token with the paper. The
segmenter rewrites CJK runs into space-separated tokens before indexing, and splits the CJK
runs of a query the same way; Latin text passes through untouched.

Modes: ``bigram`` (overlapping character pairs, no dictionary; the default: it measured as
good as jieba, bench/results/zh_search.md), ``jieba`` (dictionary words, MIT, extra ``zh``;
its dictionary ships in the package, it writes a parse cache to the temp folder and
downloads nothing), ``none`` (runs left whole; the old behaviour, for comparison). The
indexed form depends on the mode: changing it needs a rebuild (``papermind reindex``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

from papermind.errors import ConfigError
from papermind.i18n.query_terms import CHINESE_STOP_WORDS
from papermind.i18n.scripts import CJK_RUN, squeeze_cjk_spaces

SegmenterMode = Literal["jieba", "bigram", "none"]
MODES: tuple[SegmenterMode, ...] = ("jieba", "bigram", "none")
_LOCK = threading.Lock()


class Segmenter:
    """Index and query forms of text for one segmentation mode."""

    def __init__(self, mode: SegmenterMode = "bigram") -> None:
        if mode not in MODES:
            raise ValueError(f"unknown CJK segmenter {mode!r} (use {', '.join(MODES)})")
        self.mode = mode
        self._split: Callable[[str], list[str]] = {
            "jieba": _jieba_words, "bigram": _bigrams, "none": lambda run: [run]}[mode]

    def index_text(self, text: str) -> str:
        """``text`` with each CJK run replaced by its space-separated tokens."""
        if self.mode == "none" or not CJK_RUN.search(text):
            return text
        text = squeeze_cjk_spaces(text)  # letter-spaced Chinese ('在 正 文') is one run
        return CJK_RUN.sub(lambda m: f" {' '.join(self._split(m.group()))} ", text)

    def query_terms(self, text: str) -> list[str]:
        """The CJK tokens of a query, function words and lone characters dropped (kept
        when nothing else is left)."""
        tokens = [t for run in CJK_RUN.findall(text) for t in self._split(run)]
        kept = [t for t in tokens if t not in CHINESE_STOP_WORDS and len(t) > 1]
        return list(dict.fromkeys(kept or tokens))


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) < 2 else [run[i:i + 2] for i in range(len(run) - 1)]


def _jieba_words(run: str) -> list[str]:
    """Search-engine mode: words plus their in-dictionary sub-words ('注意力机制' ->
    '注意', '注意力', '机制'), so a query word matches a longer compound in the paper."""
    return [w for w in _jieba().cut_for_search(run, HMM=True) if w.strip()]


@cache
def _jieba() -> Any:
    with _LOCK:
        try:
            import jieba
        except ImportError:
            raise ConfigError("search.cjk_segmenter 'jieba' needs the jieba package",
                              hint="pip install 'papermind[zh]', or use 'bigram'") from None

        jieba.setLogLevel(logging.WARNING)
        tokenizer = jieba.Tokenizer()
        tokenizer.initialize()
        return tokenizer
