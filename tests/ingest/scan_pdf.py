"""Scanned PDFs for the OCR tests: born-digital pages rendered to images and rebuilt.

``scanned_pdf`` renders every page of a PDF at ``dpi`` with PDFium and saves the images as
an image-only PDF (Pillow), optionally turning some pages sideways in the image (a page
scanned sideways), giving some a /Rotate flag, or keeping some as the original text pages
(a mixed PDF).
"""

from __future__ import annotations

import io
from collections.abc import Collection, Mapping
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image


def page_images(source: Path, dpi: int = 200) -> list[Image.Image]:
    """Every page of ``source`` as an RGB image at ``dpi``."""
    document = pdfium.PdfDocument(str(source))
    try:
        images = []
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72)
            images.append(bitmap.to_pil().convert("RGB"))
            bitmap.close()
            page.close()
        return images
    finally:
        document.close()


def scanned_pdf(source: Path, target: Path, *, dpi: int = 200,
                sideways: Mapping[int, int] | None = None,
                rotate_flag: Mapping[int, int] | None = None,
                keep_text: Collection[int] = ()) -> Path:
    """``source`` rebuilt from page images at ``dpi`` into ``target``.

    ``sideways``: 1-based page -> degrees the image is turned clockwise (scanned sideways);
    ``rotate_flag``: page -> /Rotate value set on the image page; ``keep_text``: pages taken
    from ``source`` unchanged (with their text layer).
    """
    images = page_images(source, dpi)
    for number, degrees in (sideways or {}).items():
        images[number - 1] = images[number - 1].rotate(-degrees, expand=True)
    buffer = io.BytesIO()
    images[0].save(buffer, format="PDF", save_all=True, append_images=images[1:],
                   resolution=float(dpi))
    scans = pdfium.PdfDocument(buffer.getvalue())
    original = pdfium.PdfDocument(str(source))
    out = pdfium.PdfDocument.new()
    try:
        for index in range(len(images)):
            origin = original if index + 1 in keep_text else scans
            out.import_pages(origin, pages=[index])
            degrees = (rotate_flag or {}).get(index + 1)
            if degrees:
                page = out[index]
                page.set_rotation(degrees)
                page.close()
        out.save(str(target))
    finally:
        out.close()
        scans.close()
        original.close()
    return target
