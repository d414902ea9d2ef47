"""Word boxes of a parsed PDF's flow lines, from PDFium's character boxes.

The parsed paper keeps one box per line. The reader's text layer and word-exact highlights
need a box per word: each page's characters are read again (loose boxes, as the layout
uses), given to the flow line whose box holds their centre, and aligned with the line's
normalised text (ligatures, composed accents), so every word of ``line.text.split()`` gets
the union of its characters' boxes. A word none of whose characters are matched gets a box
estimated from its position in the line, marked ``measured=False``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher
from pathlib import Path

import pypdfium2 as pdfium

from papermind.domain import Box, Line, Page
from papermind.domain.text_layer import PageWords, Word
from papermind.ingest.layout import Rect
from papermind.ingest.pdf_layout import PageChars
from papermind.ingest.pdfium_guard import stored_pdf

_WORD = re.compile(r"\S+")
_ROW = 12.0  # points per bucket row when finding a character's line
_SLACK = 1.0  # a centre this close outside a line box still belongs to it
_LINE_END_MARKS = "\u00ad\ufffe\x02"  # soft hyphen, PDFium's line-end hyphen markers
_GOOD_MATCH = 0.9  # below this share of matched characters the PDF's own order is tried

Char = tuple[str, Rect]


def page_words(path: Path, pages: Sequence[Page]) -> list[PageWords]:
    """The words of ``pages`` (parsed from the PDF at ``path``) with their boxes."""
    with stored_pdf(path) as document:
        return [_words_of(document, page) for page in pages]


def _words_of(document: pdfium.PdfDocument, page: Page) -> PageWords:
    chars: list[Char] = []
    if 1 <= page.number <= len(document) and page.lines and not page.ocr:  # OCR: no chars
        chars = _page_chars(document, page.number)
    owned = _assign(chars, [ln for ln in page.lines if ln.box is not None])
    words = [w for line in page.lines if line.box is not None
             for w in line_words(line, owned.get(line.n, []))]
    return PageWords(page=page.number, width=page.width, height=page.height, words=words)


def _page_chars(document: pdfium.PdfDocument, number: int) -> list[Char]:
    pdf_page = document[number - 1]
    try:
        textpage = pdf_page.get_textpage()
        try:
            chars = PageChars(textpage, pdf_page.get_bbox())
            text = chars.text()
            return [(ch, chars.box(i)) for i, ch in enumerate(text) if not ch.isspace()]
        finally:
            textpage.close()
    finally:
        pdf_page.close()


def _assign(chars: list[Char], lines: list[Line]) -> dict[int, list[Char]]:
    """Each character to the (smallest) line box holding its centre."""
    rows: dict[int, list[Line]] = {}
    for line in lines:
        assert line.box is not None
        for row in range(int((line.box.y0 - _SLACK) // _ROW), int((line.box.y1 + _SLACK) // _ROW) + 1):
            rows.setdefault(row, []).append(line)
    owned: dict[int, list[Char]] = {}
    for ch, (x0, y0, x1, y1) in chars:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        holders = [ln for ln in rows.get(int(cy // _ROW), []) if _holds(ln.box, cx, cy)]
        if holders:
            best = min(holders, key=lambda ln: _area(ln.box))
            owned.setdefault(best.n, []).append((ch, (x0, y0, x1, y1)))
    return owned


def _holds(box: Box | None, x: float, y: float) -> bool:
    return box is not None and box.x0 - _SLACK <= x <= box.x1 + _SLACK and \
        box.y0 - _SLACK <= y <= box.y1 + _SLACK


def _area(box: Box | None) -> float:
    return 0.0 if box is None else (box.x1 - box.x0) * (box.y1 - box.y0)


def line_words(line: Line, chars: list[Char]) -> list[Word]:
    """The words of ``line`` with boxes from ``chars`` (the PDF characters on it, in the
    PDF's order): aligned left to right, or in the PDF's order when that matches more (a
    right-to-left script)."""
    assert line.box is not None
    spans = [m.span() for m in _WORD.finditer(line.text)]
    target = [i for i, c in enumerate(line.text) if not c.isspace()]
    box_of = _aligned(line.text, target, sorted(chars, key=lambda c: (c[1][0] + c[1][2]) / 2))
    if len(box_of) < _GOOD_MATCH * len(target):
        in_order = _aligned(line.text, target, chars)
        if (_words_hit(spans, in_order), len(in_order)) > (_words_hit(spans, box_of),
                                                            len(box_of)):
            box_of = in_order
    return [_word(line, n, start, end, [box_of[i] for i in range(start, end) if i in box_of])
            for n, (start, end) in enumerate(spans)]


def _words_hit(spans: list[tuple[int, int]], box_of: dict[int, Rect]) -> int:
    return sum(any(i in box_of for i in range(start, end)) for start, end in spans)


def _aligned(text: str, target: list[int], ordered: list[Char]) -> dict[int, Rect]:
    """Offset in ``text`` -> box of the character it was matched with."""
    source, owner = _expanded(ordered)
    matcher = SequenceMatcher(None, "".join(text[i].lower() for i in target), source,
                              autojunk=False)
    return {target[block.a + k]: ordered[owner[block.b + k]][1]
            for block in matcher.get_matching_blocks() for k in range(block.size)}


def _expanded(chars: list[Char]) -> tuple[str, list[int]]:
    """Characters normalised the way line text is (NFKC, lower case, a line-end hyphen
    marker as '-'), and for each output character the index of the PDF character it came
    from."""
    out: list[str] = []
    owner: list[int] = []
    for i, (ch, _) in enumerate(chars):
        ch = "-" if ch in _LINE_END_MARKS else ch  # the line text shows them as '-'
        for c in unicodedata.normalize("NFKC", ch):
            low = c.lower()
            out.append(low if len(low) == 1 else c)
            owner.append(i)
    return "".join(out), owner


def _word(line: Line, n: int, start: int, end: int, boxes: list[Rect]) -> Word:
    assert line.box is not None
    text = line.text[start:end]
    if not boxes:
        size = max(len(line.text), 1)
        width = line.box.x1 - line.box.x0
        box = Box(page=line.page, x0=line.box.x0 + width * start / size, y0=line.box.y0,
                  x1=line.box.x0 + width * end / size, y1=line.box.y1)
        return Word(line=line.n, index=n, text=text, box=box, measured=False)
    box = Box(page=line.page, x0=min(b[0] for b in boxes), y0=min(b[1] for b in boxes),
              x1=max(b[2] for b in boxes), y1=max(b[3] for b in boxes))
    return Word(line=line.n, index=n, text=text, box=box)
