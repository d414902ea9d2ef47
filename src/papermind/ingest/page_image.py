"""Render one PDF page to PNG for the web UI's citation view."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium

from papermind.errors import InputError, NotFoundError


def render_page_png(path: Path, page_number: int, *, scale: float = 1.5) -> bytes:
    """PNG bytes of ``page_number`` (1-based) at ``scale`` x 72 dpi.

    Boxes in the paper model are PDF points with a top-left origin, so a box maps onto
    this image by multiplying every coordinate by ``scale``.
    """
    if not 0.25 <= scale <= 4.0:
        raise InputError("scale must be between 0.25 and 4")
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as err:
        raise InputError(f"cannot open the stored PDF: {err}") from err
    try:
        if not 1 <= page_number <= len(document):
            raise NotFoundError(f"page {page_number} does not exist (the paper has "
                                f"{len(document)} pages)")
        page = document[page_number - 1]
        image = page.render(scale=scale).to_pil()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=False)
        return buffer.getvalue()
    finally:
        document.close()
