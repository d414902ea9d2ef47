"""Text a human reader cannot see: white fill, invisible render mode, tiny font, off-page,
clipped away. Found by walking the page's text objects with raw PDFium calls.

White (or invisible) text counts as hidden unless something drawn before it lies under it:
a path of another colour makes it visible, an image is assumed to be an OCR'd scan. Dark
text on a dark box is not detected.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator

import pypdfium2.raw as pdfium_c

from papermind.ingest.layout import RawFinding

_NEAR_WHITE = 245


def _text_objects(page_raw: object) -> Iterator[tuple[int, object]]:
    for i in range(pdfium_c.FPDFPage_CountObjects(page_raw)):
        obj = pdfium_c.FPDFPage_GetObject(page_raw, i)
        if obj and pdfium_c.FPDFPageObj_GetType(obj) == pdfium_c.FPDF_PAGEOBJ_TEXT:
            yield i, obj


def _backdrop(page_raw: object, before: int, x: float, y: float) -> tuple[int, ...] | None:
    """Colour under (x, y) drawn before object ``before``: (r, g, b), () for an image, None."""
    for i in range(before - 1, -1, -1):
        obj = pdfium_c.FPDFPage_GetObject(page_raw, i)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind not in (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE,
                        pdfium_c.FPDF_PAGEOBJ_SHADING):
            continue
        left, bottom, right, top = _bounds(obj)
        if not (left <= x <= right and bottom <= y <= top):
            continue
        if kind != pdfium_c.FPDF_PAGEOBJ_PATH:
            return ()
        mode, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj, ctypes.byref(mode), ctypes.byref(stroke))
        if mode.value and pdfium_c.FPDFPageObj_GetFillColor(obj, *_U_P) and _U[3].value > 0:
            return _U[0].value, _U[1].value, _U[2].value
    return None


def _matches_background(page_raw: object, index: int, obj: object, rgb: tuple[int, ...] | None
                        ) -> str | None:
    """Why text drawn in ``rgb`` (None: invisible) cannot be seen against what lies under it."""
    left, bottom, right, top = _bounds(obj)
    under = _backdrop(page_raw, index, (left + right) / 2, (bottom + top) / 2)
    if under == ():
        return None  # over an image (e.g. an OCR layer): cannot tell, assume visible
    if rgb is None:
        return "invisible render mode"
    if under is None:
        return f"white fill (rgb {rgb[0]},{rgb[1]},{rgb[2]})" if min(rgb) >= _NEAR_WHITE else None
    if max(abs(a - b) for a, b in zip(rgb, under, strict=True)) <= 16:
        return f"fill matches background (rgb {rgb[0]},{rgb[1]},{rgb[2]})"
    return None


_F = [ctypes.c_float() for _ in range(4)]
_F_P = [ctypes.byref(v) for v in _F]
_U = [ctypes.c_uint() for _ in range(4)]
_U_P = [ctypes.byref(v) for v in _U]


def _bounds(obj: object) -> tuple[float, float, float, float]:
    pdfium_c.FPDFPageObj_GetBounds(obj, *_F_P)
    return _F[0].value, _F[1].value, _F[2].value, _F[3].value  # left, bottom, right, top


def _font_size(obj: object) -> float:
    size = ctypes.c_float()
    if not pdfium_c.FPDFTextObj_GetFontSize(obj, ctypes.byref(size)):
        return 0.0
    matrix = pdfium_c.FS_MATRIX()
    if pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix)):
        return size.value * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
    return size.value


def _clip_box(obj: object) -> tuple[float, float, float, float] | None:
    clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return None
    xs: list[float] = []
    ys: list[float] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    for p in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
        for s in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, p)):
            seg = pdfium_c.FPDFClipPath_GetPathSegment(clip, p, s)
            if seg and pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y)):
                xs.append(x.value)
                ys.append(y.value)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _reason(page_raw: object, index: int, obj: object, page_box: tuple[float, float, float, float],
            min_pt: float) -> str | None:
    mode = pdfium_c.FPDFTextObj_GetTextRenderMode(obj)
    if mode == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
        return _matches_background(page_raw, index, obj, None)
    if pdfium_c.FPDFPageObj_GetFillColor(obj, *_U_P):
        r, g, b, a = (v.value for v in _U)
        if a == 0:
            return "transparent fill"
        if min(r, g, b) >= _NEAR_WHITE and (
                found := _matches_background(page_raw, index, obj, (r, g, b))):
            return found
    size = _font_size(obj)
    if 0 < size < min_pt:
        return f"font {size:.1f} pt"
    left, bottom, right, top = _bounds(obj)
    pl, pb, pr, pt = page_box
    if right <= pl or left >= pr or top <= pb or bottom >= pt:
        return "outside the page box"
    clip = _clip_box(obj)
    if clip is not None:
        cl, cb, cr, ct = clip
        if cr - cl < 0.5 or ct - cb < 0.5 or cr <= left or cl >= right or ct <= bottom or cb >= top:
            return "clipped away (zero-size clip)"
    return None


def _address(obj: object) -> int:
    """A handle's address, to compare the same object reached by two routes."""
    return ctypes.cast(obj, ctypes.c_void_p).value or 0  # type: ignore[arg-type]


def _text(obj: object, textpage_raw: object) -> str:
    need = pdfium_c.FPDFTextObj_GetText(obj, textpage_raw, None, 0)
    if need <= 2:
        return ""
    buf = ctypes.create_string_buffer(need)
    pdfium_c.FPDFTextObj_GetText(obj, textpage_raw, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), need)
    return buf.raw[: need - 2].decode("utf-16-le", errors="replace")


def find_hidden(page_raw: object, textpage_raw: object, page_number: int,
                page_box: tuple[float, float, float, float], min_pt: float
                ) -> tuple[list[RawFinding], set[int]]:
    """Findings (consecutive objects with one reason merged) and the hidden objects' addresses."""
    findings: list[RawFinding] = []
    hidden: set[int] = set()
    last_reason = None
    for index, obj in _text_objects(page_raw):
        reason = _reason(page_raw, index, obj, page_box, min_pt)
        if reason is None:
            last_reason = None
            continue
        hidden.add(_address(obj))
        text = _text(obj, textpage_raw)
        left, bottom, right, top = _bounds(obj)
        box = (left - page_box[0], page_box[3] - top, right - page_box[0], page_box[3] - bottom)
        if findings and reason == last_reason:
            prev = findings[-1]
            prev.text = f"{prev.text}{'' if prev.text.endswith(' ') else ' '}{text}".strip()
            if prev.box:
                prev.box = (min(prev.box[0], box[0]), min(prev.box[1], box[1]),
                            max(prev.box[2], box[2]), max(prev.box[3], box[3]))
        elif text.strip():
            findings.append(RawFinding(page=page_number, text=text.strip(), reason=reason, box=box))
        last_reason = reason if text.strip() or findings else None
    return findings, hidden


def hidden_char_indices(textpage_raw: object, count: int, hidden_objects: set[int]) -> set[int]:
    """Indices of the characters that belong to hidden text objects."""
    out: set[int] = set()
    for i in range(count):
        obj = pdfium_c.FPDFText_GetTextObject(textpage_raw, i)
        if obj and _address(obj) in hidden_objects:
            out.add(i)
    return out
