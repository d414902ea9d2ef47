"""Scanned pages: decide which pages need OCR, turn them upright, and lay out their lines.

A page is read by OCR when its text layer holds no letters, or mostly characters that are
not text (a font without a Unicode map gives control codes, private-use or replacement
characters). The page is rendered (its /Rotate applied), turned upright when it was
scanned sideways or upside down, and the recognised lines become flow lines with boxes in
PDF points of the upright page, so the rest of the pipeline (reading order, sections,
references, citations) treats them like born-digital lines.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from papermind.i18n.scripts import is_cjk_or_punctuation
from papermind.ingest import ocr_engine
from papermind.ingest.layout import FlowLine, LaidOutPage
from papermind.ingest.normalize import clean_line

_MIN_TEXT_SHARE = 0.5  # below this share of letters/digits/punctuation a text layer is unusable
_SIZE_PER_HEIGHT = 0.7  # font size (pt) per point of OCR line-box height
_BOLD_INK = 1.3  # a bold line's dark-pixel share over the page's median line's
_PROBES = 7  # lines whose direction is classified to tell an upside-down page
_SPACE = re.compile(r" +")
_GLUED_NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*\.?)(?=[A-Z][a-z])")  # '4Conclusion'


def text_layer_usable(text: str) -> bool:
    """Whether a page's own text layer is worth reading (else the page is OCR'd)."""
    chars = [ch for ch in text if not ch.isspace()]
    if not any(ch.isalpha() for ch in chars):
        return False
    readable = sum(unicodedata.category(ch)[0] in "LNPS" and ch != "\ufffd"
                   and unicodedata.category(ch) != "Co" for ch in chars)
    return readable >= _MIN_TEXT_SHARE * len(chars)


def upright_turn(image: np.ndarray, *, threads: int = 2) -> int:
    """Degrees clockwise (0, 90, 180, 270) that make the text of ``image`` upright."""
    boxes = ocr_engine.line_boxes(image, threads=threads)
    tall = sum(b[3] - b[1] > 2 * (b[2] - b[0]) for b in boxes)
    wide = sum(b[2] - b[0] > 2 * (b[3] - b[1]) for b in boxes)
    turn = 90 if tall > wide else 0
    if turn:
        image = turned(image, turn)
        boxes = ocr_engine.line_boxes(image, threads=threads)
    probes = [_crop(image, b) for b in
              sorted(boxes, key=lambda b: b[2] - b[0], reverse=True)[:_PROBES]]
    flips = sum(ocr_engine.upside_down(crop, threads=threads) for crop in probes)
    if not probes or flips * 2 <= len(probes) or not _reads_better_turned(probes, threads):
        return turn
    return (turn + 180) % 360


def _reads_better_turned(crops: list[np.ndarray], threads: int) -> bool:
    """Whether the recogniser is surer of these lines upside down: the direction classifier
    alone turned a Chinese journal page over, so its verdict is checked before it is used."""
    as_is = sum(ocr_engine.line_score(c, threads=threads) for c in crops)
    over = sum(ocr_engine.line_score(turned(c, 180), threads=threads) for c in crops)
    return over > as_is


def turned(image: np.ndarray, degrees: int) -> np.ndarray:
    """``image`` rotated ``degrees`` clockwise (a multiple of 90)."""
    return np.ascontiguousarray(np.rot90(image, k=-(degrees // 90) % 4))


def ocr_page(image: np.ndarray, number: int, scale: float, *, threads: int = 2) -> LaidOutPage:
    """The flow lines of an upright page image rendered at ``scale`` pixels per point."""
    height, width = image.shape[:2]
    page = LaidOutPage(number=number, width=width / scale, height=height / scale, ocr=True)
    gray = image.mean(axis=2) if image.ndim == 3 else image
    inks: list[float] = []
    for found in ocr_engine.read_lines(image, threads=threads):
        text = _GLUED_NUMBER.sub(r"\1 ", join_cjk(clean_line(found.text)))
        if not text:
            continue
        x0, y0, x1, y1 = (v / scale for v in found.box)
        box = (max(x0, 0.0), max(y0, 0.0), min(x1, page.width), min(y1, page.height))
        size = round((box[3] - box[1]) * _SIZE_PER_HEIGHT * 2) / 2
        page.lines.append(FlowLine(page=number, text=text, box=box, size=size, peak=size,
                                   confidence=round(found.score, 4)))
        inks.append(_ink(gray, found.box))
    _mark_bold(page.lines, inks)
    _even_sizes(page.lines)
    return page


def _even_sizes(lines: list[FlowLine]) -> None:
    """Sizes within 15% of the page's median become the median: OCR boxes of body lines
    differ by ascenders and descenders, not by font size."""
    if not lines:
        return
    typical = float(np.median([line.size for line in lines]))
    for line in lines:
        if abs(line.size - typical) <= 0.15 * typical:
            line.size = line.peak = typical


def _ink(gray: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """Share of dark pixels in the line's box: bold type covers more of it."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    crop = gray[max(y0, 0):y1, max(x0, 0):x1]
    return float((crop < 128).mean()) if crop.size else 0.0


def _mark_bold(lines: list[FlowLine], inks: list[float]) -> None:
    """Lines whose ink share stands well above the page's typical line are set in bold."""
    if len(inks) < 3:
        return
    typical = float(np.median(inks))
    for line, ink in zip(lines, inks, strict=True):
        line.bold = ink > _BOLD_INK * typical


def join_cjk(text: str) -> str:
    """``text`` without the spaces OCR puts between two Chinese/Japanese characters."""
    parts = _SPACE.split(text)
    out = parts[0]
    for part in parts[1:]:
        if out and part and is_cjk_or_punctuation(out[-1]) and is_cjk_or_punctuation(part[0]):
            out += part
        else:
            out += " " + part
    return out


def _crop(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    return np.ascontiguousarray(image[max(y0, 0):y1, max(x0, 0):x1])
