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


LEFT = ["1 Introduction",
        "Scanned journal articles hold much of the",
        "older literature, yet their pages carry no",
        "text layer that a reader could search or",
        "cite. We read such pages with optical",
        "character recognition and keep a box for",
        "every line [1].",
        "2 Method",
        "Each page is rendered at 200 dpi and the",
        "detector finds the text lines, which the",
        "recogniser reads one at a time [2].",
        ]
RIGHT = ["3 Results",
         "On twelve scanned papers the character",
         "error rate was 2.4 percent, and every",
         "quote of the reviews was found again.",
         "4 Conclusion",
         "Optical character recognition makes old",
         "scans searchable and citable again.",
         ]
REFERENCES = ["References",
              "[1] A. Smith. Reading old papers. Journal of Scans, 12(3):45-67, 1998.",
              "[2] B. Jones. Line detection for printed pages. In Proc. OCR Conf., 2001."]
SENTENCE = "the character error rate was 2.4 percent, and every quote of the reviews was found again"


def two_column_paper_pdf(path: Path, *, references: bool = True) -> Path:
    """A small paper: a two-column page (title, numbered sections), then a references page."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(306, 720, "Reading Scanned Papers Again")
    columns = [(LEFT, 60.0, 680.0), (RIGHT, 318.0, 680.0)]
    if references:
        columns.append((REFERENCES, 60.0, -1.0))
    for lines, x, y in columns:
        if y < 0:
            c.showPage()
            y = 720.0
        for text in lines:
            heading = text[0].isdigit() and len(text) < 20 or text == "References"
            c.setFont("Helvetica-Bold" if heading else "Helvetica", 12 if heading else 11)
            c.drawString(x, y, text)
            y -= 18 if heading else 14
    c.showPage()
    c.save()
    return path


def text_layer(path: Path) -> list[str]:
    """Each page's own text, whitespace collapsed."""
    document = pdfium.PdfDocument(str(path))
    try:
        out = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            out.append(" ".join(textpage.get_text_range().split()))
            textpage.close()
            page.close()
        return out
    finally:
        document.close()


def char_error_rate(found: str, expected: str) -> float:
    """Levenshtein distance over the expected length, whitespace collapsed on both sides."""
    from rapidfuzz.distance import Levenshtein

    a, b = " ".join(found.split()), " ".join(expected.split())
    return Levenshtein.distance(a, b) / max(len(b), 1)
