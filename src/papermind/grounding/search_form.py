"""The plain-search form of a text: what "a quote is the paper's text" is checked in.

Every quote PaperMind shows is found by a plain substring search of ``search_form(quote)``
in ``search_form(page_text)``, where the page's text is as PDFium or pdftotext extracts it.
The form, step by step:

1. Unicode NFKC (ligatures 'ﬁ' -> 'fi', full-width and math letters, superscripts);
2. a hyphen between two letters is dropped, also where a line break follows it: '-',
   U+2010, U+2011, the soft hyphen U+00AD and PDFium's line-end markers U+FFFE and U+0002
   ('state-of-the-\\nart', 'evalu\\ufffeation' -> 'stateoftheart', 'evaluation'), since a
   line-end hyphen is read with or without its hyphen by different extractors; a hyphen
   after a letter at the very end of the text is dropped too (a line's first half);
3. accents are dropped (NFKD, combining marks and the spacing accents TeX draws as glyphs
   of their own, '´' '`' '¨' 'ˆ' '˜' '¸' '˘' 'ˇ' '˚' '¯' '˙' '˝'), since extractors put
   them before, after or on the letter ('Zolt´an', 'Zoltán' -> 'Zoltan'); so are other
   soft hyphens, PDFium markers and zero-width characters;
4. every run of whitespace (line breaks included) is one space, none at either end.

Case, punctuation and spaces between words are kept: 'di rected' is not found where the
page says 'directed'.
"""

from __future__ import annotations

import re
import unicodedata

_HYPHEN = "[-\u2010\u2011\u00ad\ufffe\x02]"
_LETTER = r"[^\W\d_]"
_BREAK_HYPHEN = re.compile(f"(?<={_LETTER}){_HYPHEN}(?:[ \\t]*[\\r\\n]\\s*)?(?={_LETTER})")
_END_HYPHEN = re.compile(f"(?<={_LETTER}){_HYPHEN}\\s*$")
_DROPPED = str.maketrans(dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"
                                                "\u00b4`\u00a8\u02c6\u02dc\u00b8\u02d8\u02c7\u02da\u00af\u02d9\u02dd")))

_SOFT = str.maketrans(dict.fromkeys(map(ord, "\u00ad\ufffe\x02")))


def search_form(text: str) -> str:
    """``text`` in the form quotes are searched in (see the module's steps)."""
    text = unicodedata.normalize("NFKC", text.translate(_DROPPED))  # NFKC: '¨' -> ' \u0308'
    text = _END_HYPHEN.sub("", _BREAK_HYPHEN.sub("", text)).translate(_SOFT)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(text.split())


def found_in(quote: str, page_text: str) -> bool:
    """True when ``quote`` occurs in ``page_text`` by a plain search of their search forms."""
    return search_form(quote) in search_form(page_text)
