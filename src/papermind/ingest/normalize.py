"""Character clean-up of lines and the de-hyphenating join of lines into blocks.

Line text is cleaned once (ligatures, soft hyphens, odd code points, whitespace); a block's
text is its lines joined, and every block keeps an exact offset map (``Segment``) from its
text back to spans of its lines' text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from papermind.domain.paper import Segment
from papermind.i18n.scripts import is_cjk_or_punctuation
from papermind.ingest.hyphenation import Vocabulary, splits_word
from papermind.ingest.layout import FlowLine

__all__ = ["Vocabulary", "clean_line", "join_lines", "span_lines"]

_DROP = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0xFFFD, 0x0000] + list(range(1, 9))
    + list(range(0x0E, 0x20)) + [0x7F] + list(range(0x80, 0xA0)),
)
_SPACES = {0x00A0: " ", 0x2002: " ", 0x2003: " ", 0x2009: " ", 0x202F: " ", 0x3000: " ",
           0x09: " ", 0x0B: " ", 0x0C: " ", 0x0A: " ", 0x0D: " ", 0x2028: " ", 0x2029: " "}
_MAP: dict[int, str | None] = {**{k: None for k in _DROP}, **_SPACES, 0xFFFE: "-", 0x2010: "-",
                               0x2011: "-"}
_WS = re.compile(r"\s{2,}")
_HIGH = re.compile("[\ufb00-\U0010ffff]")


def _compat(ch: str) -> str:
    code = ord(ch)
    if 0xFB00 <= code <= 0xFB06 or 0x1D400 <= code <= 0x1D7FF or 0xFF01 <= code <= 0xFF5E:
        return unicodedata.normalize("NFKC", ch)
    return ch


def _join_surrogates(text: str) -> str:
    """PDFium can hand out UTF-16 surrogate pairs as two code points; make them one (and drop
    lone halves), so the text is valid Unicode everywhere downstream."""
    if not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").replace("\ufffd", "")


def clean_line(text: str) -> str:
    """Ligatures expanded, soft hyphens and zero-width/odd code points removed, spaces collapsed.

    A soft hyphen (U+00AD), PDFium's U+FFFE marker, or the U+0002 that PDFium gives for a
    line-end hyphen in some fonts ('Frame\x02' + 'work') becomes '-' at the end of a line so
    that the join can decide about it; elsewhere it is dropped (U+0002 is also a symbol
    font's unmapped glyph, so it counts as a hyphen only after a letter).
    """
    stripped = _join_surrogates(text.rstrip())
    trailing_soft = stripped.endswith(("\u00ad", "\ufffe")) or (
        stripped.endswith("\x02") and stripped[-2:-1].isalpha())
    out = stripped.translate(_MAP)
    if _HIGH.search(out):
        out = "".join(_compat(ch) for ch in out)
    out = _WS.sub(" ", out).strip()
    if trailing_soft and not out.endswith("-"):
        out += "-"
    return out


def _compound_break(prev: str, nxt: str) -> bool:
    """'low-' + 'dimensional': a compound's own hyphen at the line end, no space after it."""
    return len(prev) >= 2 and prev.endswith("-") and prev[-2].isalpha() and nxt[:1].isalpha()


def _no_space(prev: str, nxt: str) -> bool:
    """Chinese and Japanese lines join without a space (a break between two characters)."""
    return is_cjk_or_punctuation(prev[-1:]) or is_cjk_or_punctuation(nxt[:1])


def join_lines(lines: Sequence[FlowLine], vocab: Vocabulary | None = None) -> tuple[str, list[Segment]]:
    """Block text and its exact offset map; line-end hyphens of split words are removed
    (``hyphenation.splits_word``), a kept line-end hyphen joins without a space, and no space
    is put between lines where either side of the break is Chinese or Japanese."""
    parts: list[str] = []
    segments: list[Segment] = []
    pos = 0
    for i, line in enumerate(lines):
        text = line.text
        if not text:
            continue
        end = len(text)
        nxt = lines[i + 1].text if i + 1 < len(lines) else ""
        joined = splits_word(text, nxt, vocab)
        glued = not joined and (_compound_break(text, nxt) or _no_space(text, nxt))
        if joined:
            end -= 1
        segments.append(Segment(start=pos, end=pos + end, page=line.page, line=line.n,
                                line_start=0, line_end=end))
        parts.append(text[:end])
        pos += end
        if i + 1 < len(lines) and not (joined or glued):
            parts.append(" ")
            pos += 1
    return "".join(parts).rstrip(), segments


def span_lines(segments: Sequence[Segment], start: int, end: int) -> list[Segment]:
    """The segments overlapping ``[start, end)`` of a block's text."""
    return [s for s in segments if s.start < end and s.end > start]
