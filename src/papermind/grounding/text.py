"""Text normalisation shared by the locator and the claim checks.

A *token* is a whitespace-separated word, or one character of Chinese or Japanese text
(written without spaces, so a quote may start or end anywhere in a run and a changed
character is a changed token), reduced to a comparison key: Unicode
compatibility forms (ligatures, math alphabets, superscripts) decomposed, accents and case
folded, quotes, dashes and hyphens between letters dropped. Characters that carry meaning
stay: letters, digits, a decimal point or thousands comma between digits, a minus sign
before a number, and symbols such as ``%``, ``=`` or ``<``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from papermind.i18n.scripts import CJK_LETTERS

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_INVISIBLE = "\u00ad\ufffe\ufeff\u200b\u200c\u200d\u2060"
_FOLD_TABLE = str.maketrans(
    {**{c: "-" for c in _DASHES}, **{c: None for c in _INVISIBLE},
     **{c: "'" for c in "\u2018\u2019\u201a\u201b\u2032\u00b4`"},
     **{c: '"' for c in "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"}}
)
_NEGATING = "\u0338\u20d2"  # overlays that turn '=' into '\u2260', '<' into '\u226e'...
_DROPPED = set("'\"`()[]{};:!?*\u2022\u00b7\u3001\u3002\u300a\u300b\u3008\u3009\u300c\u300d"
               "\u300e\u300f\u3010\u3011")  # and the ideographic comma, full stop, brackets
_CJK_TOKEN = f"{CJK_LETTERS}\u3000-\u303f\uff00-\uffef"  # letters, ideographic punctuation
_TOKEN = re.compile(f"[{_CJK_TOKEN}]|[^\\s{_CJK_TOKEN}]+")
_DOTS = r"(?:\.\s?\.\s?\.|\u2026)"
_ELLIPSIS = re.compile(  # '1,...,n' inside a formula is not an omission: dots need a space
    rf"\s*(?:\[\s*(?:\.\s*){{3}}\]|\(\s*(?:\.\s*){{3}}\)|(?<!\S){_DOTS}|{_DOTS}(?!\S))\s*")
NUMBER = re.compile(  # not inside a word; Chinese text glues numbers to characters ('提高3.5%')
    rf"(?<![^\W{CJK_LETTERS}])(?<!\.)[-\u2212]?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?(?:\s?%)?")


def fold(text: str) -> str:
    """Compatibility-decompose, strip accents, map quotes and dashes, fold case.

    A negating overlay stays: '\u2260' must not fold to '='."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD_TABLE))
    plain = "".join(c for c in decomposed if c in _NEGATING or not unicodedata.combining(c))
    if "\u0338" in plain or "\u20d2" in plain:  # PDFs draw the overlay first: put it after
        plain = re.sub(r"([\u0338\u20d2])(\S)", r"\2\1", plain)
    return plain.translate(_FOLD_TABLE).casefold()


@lru_cache(maxsize=1 << 16)
def norm_token(raw: str) -> str:
    """The comparison key of one raw word ('' for pure punctuation)."""
    if raw.isascii() and raw.isalnum():
        return raw.lower()
    s = fold(raw)
    out: list[str] = []
    last = len(s) - 1
    for i, c in enumerate(s):
        if c.isalnum():
            out.append(c)
        elif c in ".,":
            if 0 < i < last and s[i - 1].isdigit() and s[i + 1].isdigit():
                out.append(c)
        elif c == "-":
            if i < last and s[i + 1].isdigit() and (i == 0 or not s[i - 1].isalnum()):
                out.append(c)
        elif c not in _DROPPED and not c.isspace():
            out.append(c)
    return "".join(out)


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each token of ``text``: whitespace-separated words, with each CJK
    character (and ideographic punctuation mark) a token of its own."""
    return [m.span() for m in _TOKEN.finditer(text)]


def words(text: str) -> list[str]:
    """The tokens of ``text`` (see ``word_spans``)."""
    return _TOKEN.findall(text)


def norm_words(text: str) -> list[str]:
    """Comparison keys of the words of ``text`` (empty keys dropped)."""
    return [key for key in (norm_token(w) for w in words(text)) if key]


def compact(text: str) -> str:
    """All keys of ``text`` concatenated: the form the normalised match compares."""
    return "".join(norm_words(text))


def split_ellipsis(quote: str) -> list[str]:
    """Parts of a quote around '...', '[...]' or '\u2026' (one part when there is none)."""
    return [part for part in _ELLIPSIS.split(quote) if part.strip()]


def strip_quote_marks(quote: str) -> str:
    """The quote without surrounding quotation marks and whitespace."""
    return quote.strip().strip("\"'\u201c\u201d\u2018\u2019\u00ab\u00bb").strip()


def numbers_in(text: str) -> list[str]:
    """Numbers as written (sign and percent kept, thousands commas and spaces dropped)."""
    found = []
    for match in NUMBER.finditer(fold(text)):
        token = match.group().replace(" ", "")
        if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?%?", token):
            token = token.replace(",", "")
        found.append(token)
    return found
