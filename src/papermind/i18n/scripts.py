"""Character classes of the scripts written without spaces between words (Chinese, Japanese).

Used wherever text is joined, tokenised or compared: at a line break between two such
characters no space belongs; a word there is a run of characters, not a space-separated
token. Hangul is not included: Korean separates words with spaces.
"""

from __future__ import annotations

import re

# Han (with extension A and compatibility ideographs) and kana
CJK_LETTERS = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# ideographic punctuation and the full-width forms block
CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef\u2014\u2026\u201c\u201d\u2018\u2019"
CJK_CHAR = re.compile(f"[{CJK_LETTERS}]")
CJK_RUN = re.compile(f"[{CJK_LETTERS}]+")
_SPACED = re.compile(f"(?<=[{CJK_LETTERS}{CJK_PUNCTUATION}]) +(?=[{CJK_LETTERS}{CJK_PUNCTUATION}])")


def is_cjk(char: str) -> bool:
    """True for one Han or kana character."""
    return bool(char) and CJK_CHAR.match(char) is not None


def is_cjk_or_punctuation(char: str) -> bool:
    """True for a Han or kana character or an ideographic / full-width punctuation mark."""
    return bool(char) and re.match(f"[{CJK_LETTERS}{CJK_PUNCTUATION}]", char) is not None


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds at least one Han or kana character."""
    return CJK_CHAR.search(text) is not None


def squeeze_cjk_spaces(text: str) -> str:
    """Spaces between two CJK characters removed: '摘 要' -> '摘要' (letter-spaced headings)."""
    return _SPACED.sub("", text)
