"""Characters of one PDF page -> visual lines with boxes, font size and weight (PDFium).

Boxes are converted to PDF points with the origin at the page's top-left corner, y down.
PDFium's own line breaks are a first cut; lines are also split at wide horizontal gaps
(column gutters) and re-joined when PDFium broke one visual line (sub/superscripts).
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from dataclasses import dataclass, field

import pypdfium2.raw as pdfium_c

from papermind.ingest.layout import FlowLine, Rect
from papermind.ingest.normalize import clean_line
from papermind.ingest.reading_order import find_gutter

_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|[-,.]medi|cmbx|cmb\d|\bbx|\.b$", re.I)
# a font name that says "regular" outranks PDFium's weight, which is unreliable for
# embedded Type 1/Type 3 fonts (Times-Roman and CMR8 report weights of 700-800)
_REGULAR_NAME = re.compile(r"roman|regular|book|light|italic|oblique|^(\w{6}\+)?cm(r|mi|sy|ss|tt|ex|ti|sl)\d", re.I)
_GAP_EM = 1.4  # a horizontal gap wider than this many line heights splits a line
_LABEL = re.compile(r"^\s*\(\s*[A-Z]?\d{1,3}(?:\.\d{1,3})?[a-z]?\s*\)\s*$")  # equation number
_FONT_DECOR = re.compile(r"^[A-Z]{6}\+|~[0-9a-f]+$")
_CELL_GAP_EM = 0.8  # a gap this wide (in line heights) parts two table cells
_JOIN_EM = 3.5  # ...and pieces closer than this are re-joined unless a column gutter parts them


# spacing accents that TeX and others draw as separate glyphs over a letter ("Zolt´an")
_ACCENTS = {"\u00b4": "\u0301", "\u02cb": "\u0300", "\u00a8": "\u0308", "\u02c6": "\u0302",
            "\u02dc": "\u0303", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02da": "\u030a",
            "\u00af": "\u0304", "\u02dd": "\u030b", "\u00b8": "\u0327", "\u02d9": "\u0307"}


@dataclass(slots=True)
class _Frag:
    chars: list[str] = field(default_factory=list)
    boxes: list[Rect] = field(default_factory=list)
    pos: list[int] = field(default_factory=list)  # index in chars of each box's character
    cuts: list[int] = field(default_factory=list)  # box indices after a cell-wide gap
    indices: list[int] = field(default_factory=list)
    rotated: bool = False
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0

    def close(self) -> _Frag:
        """Fix the fragment's bounding box from its character boxes."""
        self.x0 = min(b[0] for b in self.boxes)
        self.y0 = min(b[1] for b in self.boxes)
        self.x1 = max(b[2] for b in self.boxes)
        self.y1 = max(b[3] for b in self.boxes)
        return self


class PageChars:
    """Reads one text page's characters through raw PDFium calls."""

    def __init__(self, textpage: object, bbox: tuple[float, float, float, float]) -> None:
        self.raw = textpage.raw  # type: ignore[attr-defined]
        self.count = pdfium_c.FPDFText_CountChars(self.raw)
        self.left, self.top = bbox[0], bbox[3]
        self.rect = pdfium_c.FS_RECTF()
        self.rect_p = ctypes.byref(self.rect)
        self._name = ctypes.create_string_buffer(128)
        self._matrix = pdfium_c.FS_MATRIX()
        self._matrix_p = ctypes.byref(self._matrix)
        self._flags = ctypes.c_int()

    def text(self) -> str:
        if not self.count:
            return ""
        buf = ctypes.create_string_buffer((self.count + 1) * 2)
        got = pdfium_c.FPDFText_GetText(self.raw, 0, self.count, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)))
        raw = buf.raw[: max(0, got - 1) * 2].decode("utf-16-le", errors="replace")
        if len(raw) != self.count:  # surrogate pairs: fall back to per-character reads
            raw = "".join(chr(pdfium_c.FPDFText_GetUnicode(self.raw, i) or 0xFFFD) for i in range(self.count))
        return raw

    def box(self, index: int) -> Rect:
        pdfium_c.FPDFText_GetLooseCharBox(self.raw, index, self.rect_p)
        r = self.rect
        return (r.left - self.left, self.top - r.top, r.right - self.left, self.top - r.bottom)

    def size(self, index: int) -> float:
        """Effective font size: nominal size scaled by the character's matrix."""
        nominal = float(pdfium_c.FPDFText_GetFontSize(self.raw, index))
        m = self._matrix
        if not pdfium_c.FPDFText_GetMatrix(self.raw, index, self._matrix_p):
            return nominal
        return nominal * math.sqrt(abs(m.a * m.d - m.b * m.c))

    def font(self, index: int) -> str:
        """Font name without its subset prefix ('ABCDEF+') or PDFium's instance suffix ('~18')."""
        pdfium_c.FPDFText_GetFontInfo(self.raw, index, self._name, 128, ctypes.byref(self._flags))
        name = self._name.value.decode("latin-1", errors="replace")
        return _FONT_DECOR.sub("", name)

    def bold(self, index: int, name: str | None = None) -> bool:
        name = self.font(index) if name is None else name
        if _BOLD_NAME.search(name):
            return True
        if _REGULAR_NAME.search(name):
            return False
        return bool(pdfium_c.FPDFText_GetFontWeight(self.raw, index) >= 600)

    def rotated(self, index: int) -> bool:
        angle = pdfium_c.FPDFText_GetCharAngle(self.raw, index)
        return 0.1 < angle < 6.18


def _attach_accents(frags: list[_Frag], accents: list[tuple[str, Rect]]) -> None:
    """Compose each spacing accent with the letter it was drawn over ('´' + 'a' -> 'á')."""
    for accent, (ax0, ay0, ax1, ay1) in accents:
        centre = (ax0 + ax1) / 2
        for frag in frags:
            if frag.y0 > ay1 or frag.y1 < ay0 or frag.x0 > centre or frag.x1 < centre:
                continue
            hit = next((k for k, b in enumerate(frag.boxes) if b[0] <= centre <= b[2]
                        and frag.chars[frag.pos[k]].isalpha()), None)
            if hit is not None:
                at = frag.pos[hit]
                frag.chars[at] = unicodedata.normalize("NFC", frag.chars[at] + _ACCENTS[accent])
                break


def _fragments(chars: PageChars, text: str, hidden: set[int]) -> list[_Frag]:
    """Split the page's characters at PDFium line breaks, wide gaps and baseline jumps."""
    frags: list[_Frag] = []
    accents: list[tuple[str, Rect]] = []
    cur = _Frag()
    ly0 = lx1 = ly1 = 0.0
    have_last = after_accent = False
    get_box, raw, rect, rect_p = pdfium_c.FPDFText_GetLooseCharBox, chars.raw, chars.rect, chars.rect_p
    left, top = chars.left, chars.top
    for i, ch in enumerate(text):
        if ch.isspace() or i in hidden:
            if ch == "\n" and cur.boxes:
                frags.append(cur)
                cur, have_last = _Frag(), False
            elif ch != "\r" and ch != "\n" and cur.chars and cur.chars[-1] != " ":
                cur.chars.append(" ")
            continue
        get_box(raw, i, rect_p)
        x0, y0, x1, y1 = rect.left - left, top - rect.top, rect.right - left, top - rect.bottom
        if x1 <= x0 and y1 <= y0:
            continue
        if ch in _ACCENTS and have_last and min(ly1, y1) - max(ly0, y0) > 0:
            accents.append((ch, (x0, y0, x1, y1)))
            after_accent = True
            continue
        if have_last and after_accent and cur.chars and cur.chars[-1] == " " and abs(x0 - lx1) < 1.0:
            cur.chars.pop()  # the space PDFium put around an accent it drew out of order
        if not have_last:
            if not cur.boxes and chars.rotated(i):
                cur.rotated = True
        elif not cur.rotated:
            height = max(ly1 - ly0, y1 - y0, 1.0)
            gap = x0 - lx1
            if (min(ly1, y1) - max(ly0, y0) < 0.3 * height
                    or gap > _GAP_EM * height or gap < -2 * height):
                frags.append(cur)
                cur = _Frag()
            else:
                if gap > 0.2 * height and cur.chars and cur.chars[-1] != " ":
                    cur.chars.append(" ")
                if gap > _CELL_GAP_EM * height:
                    cur.cuts.append(len(cur.boxes))
        cur.pos.append(len(cur.chars))
        cur.chars.append(ch)
        cur.boxes.append((x0, y0, x1, y1))
        cur.indices.append(i)
        ly0, lx1, ly1, have_last, after_accent = y0, x1, y1, True, False
    if cur.boxes:
        frags.append(cur)
    closed = [f.close() for f in frags if f.boxes]
    if accents:
        _attach_accents(closed, accents)
    return closed


def _same_line(a: _Frag, b: _Frag, gutter: float | None) -> bool:
    if a.rotated or b.rotated:
        return False
    height = max(min(a.y1 - a.y0, b.y1 - b.y0), 1.0)
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    gap = b.x0 - a.x1
    if gutter is not None and a.x1 <= gutter + 1 and b.x0 >= gutter - 1:
        return False
    if overlap < 0.3 * height or gap < -0.6 * height:
        return False
    return gap <= _JOIN_EM * max(a.y1 - a.y0, 1.0) or _LABEL.match("".join(b.chars)) is not None


def _merge(frags: list[_Frag], width: float) -> list[_Frag]:
    gutter = find_gutter([(f.x0, f.y0, f.x1, f.y1) for f in frags if not f.rotated], width)
    merged: list[_Frag] = []
    for frag in frags:
        if merged and _same_line(merged[-1], frag, gutter):
            prev = merged[-1]
            if prev.chars[-1] != " " and frag.x0 - prev.x1 > 0.15 * (prev.y1 - prev.y0):
                prev.chars.append(" ")
            if frag.x0 - prev.x1 > _CELL_GAP_EM * max(prev.y1 - prev.y0, 1.0):
                prev.cuts.append(len(prev.boxes))
            prev.cuts.extend(len(prev.boxes) + k for k in frag.cuts)
            prev.pos.extend(len(prev.chars) + k for k in frag.pos)
            prev.chars.extend(frag.chars)
            prev.indices.extend(frag.indices)
            prev.boxes.extend(frag.boxes)
            prev.x0, prev.y0 = min(prev.x0, frag.x0), min(prev.y0, frag.y0)
            prev.x1, prev.y1 = max(prev.x1, frag.x1), max(prev.y1, frag.y1)
        else:
            merged.append(frag)
    return merged


def _pieces(frag: _Frag) -> list[tuple[str, Rect]]:
    """The fragment's text split at wide gaps, each run with its box; [] for a single run."""
    boxes, cuts = frag.boxes, frag.cuts
    if not cuts:
        return []
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(boxes)], strict=True):
        run = boxes[a:b]
        text = clean_line("".join(frag.chars[frag.pos[a]:frag.pos[b - 1] + 1]))
        out.append((text, (min(r[0] for r in run), min(r[1] for r in run),
                           max(r[2] for r in run), max(r[3] for r in run))))
    return out


def _to_line(chars: PageChars, frag: _Frag, page: int) -> FlowLine:
    idx = frag.indices
    samples = sorted({idx[0], idx[len(idx) // 2], idx[-1]})
    sizes = sorted(chars.size(i) for i in samples)
    names = {i: chars.font(i) for i in samples}
    bold_votes = sum(chars.bold(i, names[i]) for i in samples)
    line = FlowLine(page=page, text=clean_line("".join(frag.chars)),
                    box=(frag.x0, frag.y0, frag.x1, frag.y1), size=sizes[len(sizes) // 2], peak=sizes[-1],
                    bold=bold_votes * 2 > len(samples), font=names[idx[len(idx) // 2]],
                    lead_font=names[idx[0]], pieces=_pieces(frag))
    if frag.rotated:
        line.kind = "stamp"
    return line


def page_lines(chars: PageChars, page: int, width: float,
               hidden: set[int] | None = None) -> list[FlowLine]:
    """Visual lines of a page, in PDFium's (content-stream) order; rotated text as 'stamp'."""
    text = chars.text()
    frags = _merge(_fragments(chars, text, hidden or set()), width)
    return [line for f in frags if (line := _to_line(chars, f, page)).text]
