"""The exact words of an anchor's text: which words of the cited lines a highlight covers.

An anchor names whole lines; the evidence's text (``matched_text``) is the paper's exact
words there, which may start mid-line and end mid-line. The words are the lines'
whitespace-separated words (``line.text.split()``, as the reader's text layer shows them);
a word hyphenated across a line break is one token made of both halves, as in the flow
index. The text's tokens are found in order among the lines' tokens (exactly, else the
longest aligned run); text that cannot be placed covers the lines whole.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from papermind.domain import Anchor, Line, Paper
from papermind.domain.text_layer import WordRef
from papermind.grounding.text import norm_token

_HYPHENS = ("-", "\u00ad", "\u2010", "\u2011")
_MIN_ALIGNED = 0.6  # share of the text's tokens an inexact placement must align


def span_lines(paper: Paper, anchor: Anchor) -> list[Line]:
    """The flow lines from the anchor's first line to its last, across pages."""
    first, last = (anchor.page, anchor.line_start), (anchor.page_end or anchor.page,
                                                     anchor.line_end)
    return [ln for ln in paper.lines() if first <= (ln.page, ln.n) <= last]


def quote_words(paper: Paper, anchor: Anchor, text: str) -> list[WordRef]:
    """The words of ``paper`` that ``text`` covers within ``anchor``'s lines, in order."""
    tokens = _tokens(span_lines(paper, anchor))
    everything = [ref for _, refs in tokens for ref in refs]
    want = [k for k in (norm_token(w) for w in text.split()) if k]
    keys = [key for key, _ in tokens]
    if not want or not keys:
        return everything
    start = _exact(keys, want)
    if start is not None:
        first, last = start, start + len(want) - 1
    else:
        blocks = [b for b in SequenceMatcher(None, keys, want, autojunk=False)
                  .get_matching_blocks() if b.size]
        if sum(b.size for b in blocks) < _MIN_ALIGNED * len(want):
            return everything
        first, last = blocks[0].a, blocks[-1].a + blocks[-1].size - 1
    return [ref for _, refs in tokens[first:last + 1] for ref in refs]


def _exact(keys: list[str], want: list[str]) -> int | None:
    n = len(want)
    return next((i for i in range(len(keys) - n + 1) if keys[i:i + n] == want), None)


def _tokens(lines: list[Line]) -> list[tuple[str, list[WordRef]]]:
    """(key, words) per token; a line-end word hyphenated into the next line joins it."""
    out: list[tuple[str, list[WordRef]]] = []
    carry: tuple[str, list[WordRef]] | None = None
    for li, line in enumerate(lines):
        words = line.text.split()
        for wi, word in enumerate(words):
            ref = WordRef(page=line.page, line=line.n, index=wi)
            raw, refs = (carry[0] + word, [*carry[1], ref]) if carry else (word, [ref])
            carry = None
            if wi == len(words) - 1 and _continues(word, lines, li):
                carry = (raw, refs)
                continue
            if key := norm_token(raw):
                out.append((key, refs))
    if carry and (key := norm_token(carry[0])):
        out.append((key, carry[1]))
    return out


def _continues(word: str, lines: list[Line], li: int) -> bool:
    """A hyphenated line end whose next line starts lower case (one word split)."""
    if not (len(word) > 1 and word.endswith(_HYPHENS) and word[-2].isalpha()):
        return False
    nxt = lines[li + 1].text.lstrip() if li + 1 < len(lines) else ""
    return nxt[:1].islower()
