"""Type sizes of OCR'd lines from the width of their glyphs, for finding a scan's title.

An OCR line box is as tall as the line's capitals, ascenders and descenders, so the second
line of a title ('in High Dimensions') can measure like body text and end up among the
authors. The width each character takes is steadier: a line set in a bigger type spends
more width per letter. Only the front matter's picture of the page changes; the stored
lines keep the OCR's sizes.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace

from papermind.i18n.scripts import has_cjk
from papermind.ingest.layout import FlowLine

OCR_SIZE_SLACK = 0.13
"""Estimated sizes within this share of each other count as one size (capitals and
letter shapes make a line's width per character vary by about a tenth)."""
_MIN_CHARS = 6
"""Shorter lines say too little about their type (and keep their OCR size)."""


def _advance(ch: str, cjk_line: bool) -> float:
    """A character's usual width in ems (Times/Computer Modern-like faces); punctuation in a
    Chinese line is full width (OCR gives it back as ASCII '(' and ',')."""
    if ch.isspace():
        return 0.28
    if has_cjk(ch):
        return 1.0
    if ch.isupper():
        return 0.70
    if ch.isalpha() or ch.isdigit():
        return 0.50
    return 1.0 if cjk_line else 0.33


def glyph_size(line: FlowLine) -> float | None:
    """The type size (pt) that the line's width per character implies; None without a box
    or with too few characters."""
    text = line.text.strip()
    if line.box is None or len(text) < _MIN_CHARS:
        return None
    cjk = has_cjk(text)
    ems = sum(_advance(ch, cjk) for ch in text)
    return (line.box[2] - line.box[0]) / ems if ems else None


def ocr_front_lines(lines: Sequence[FlowLine], count: int) -> tuple[list[FlowLine], float]:
    """``lines`` with the first ``count`` OCR'd ones sized by their glyph widths (bold, which
    OCR guesses from ink, left out of the comparison), and the body's glyph size."""
    out = list(lines)
    sizes: list[float] = []
    for i, line in enumerate(lines[:count]):
        size = glyph_size(line) if line.confidence is not None else None
        if size is not None:
            out[i] = replace(line, size=round(size * 2) / 2, peak=round(size * 2) / 2, bold=False)
    body_lines = [glyph_size(ln) for ln in lines[:max(count, 60)]
                  if ln.confidence is not None and len(ln.text) >= 40]
    sizes = [s for s in body_lines if s is not None]
    return out, round(statistics.median(sizes) * 2) / 2 if sizes else 0.0
