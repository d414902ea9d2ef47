"""Render one PDF page to PNG for the web UI's citation view (under the PDFium lock)."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium

from papermind.errors import InputError, NotFoundError
from papermind.ingest.pdfium_guard import stored_pdf

MAX_PIXELS = 40_000_000
"""Largest bitmap rendered (160 MB in RGBA): a hostile page box cannot exhaust memory."""


def render_page_png(path: Path, page_number: int, *, scale: float = 1.5,
                    max_pixels: int = MAX_PIXELS, rotation: int = 0) -> bytes:
    """PNG bytes of ``page_number`` (1-based) at ``scale`` x 72 dpi, turned ``rotation``
    degrees clockwise (``Page.rotation``: a page scanned sideways shown upright).

    Boxes in the paper model are PDF points with a top-left origin, so a box maps onto
    this image by multiplying every coordinate by ``scale``.
    """
    if rotation not in (0, 90, 180, 270):
        raise InputError("rotation must be 0, 90, 180 or 270")
    if not 0.25 <= scale <= 4.0:
        raise InputError("scale must be between 0.25 and 4")
    with stored_pdf(path) as document:
        return _render(document, page_number, scale, max_pixels, rotation)


def _render(document: pdfium.PdfDocument, page_number: int, scale: float,
            max_pixels: int, rotation: int) -> bytes:
    if not 1 <= page_number <= len(document):
        raise NotFoundError(f"page {page_number} does not exist (the paper has "
                            f"{len(document)} pages)")
    try:
        page = document[page_number - 1]
    except pdfium.PdfiumError:
        raise InputError(f"page {page_number} of the stored PDF is damaged") from None
    try:
        width, height = page.get_size()
        if width * height * scale * scale > max_pixels:
            raise InputError(f"page {page_number} is too large to render at scale {scale:g}",
                             hint="try a smaller scale")
        bitmap = page.render(scale=scale, rotation=rotation)
        try:
            image = bitmap.to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=False)  # copies out of the bitmap
        finally:
            bitmap.close()
        return buffer.getvalue()
    finally:
        page.close()
