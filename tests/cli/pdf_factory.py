"""Good and bad input files for CLI tests, generated with reportlab into a temp folder."""

from __future__ import annotations

import os
from io import BytesIO
from pathlib import Path

from PIL import Image
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

BODY = [
    "Abstract",
    "We study how small test papers are stored by a local library.",
    "1 Introduction",
    "Libraries keep papers keyed by the hash of their bytes [1].",
    "2 Method",
    "Each file is parsed, stored and indexed in one unit of work.",
    "References",
    "[1] A. Author. Content addressed storage. In Proc. of Tests, 2020.",
]

HEADINGS = {"Abstract", "1 Introduction", "2 Method", "References"}


def paper_pdf(path: Path | BytesIO, title: str, body: list[str] | None = None,
              encrypt: str | None = None) -> Path | BytesIO:
    """A one-page text PDF with a title, authors, an abstract and two sections."""
    doc = canvas.Canvas(path if isinstance(path, BytesIO) else str(path), pagesize=LETTER,
                        encrypt=encrypt)
    doc.setTitle(title)
    doc.setFont("Helvetica-Bold", 16)
    doc.drawString(72, 720, title)
    doc.setFont("Helvetica", 11)
    doc.drawString(72, 700, "Ada Lovelace and Alan Turing")
    y = 670
    for line in body or BODY:
        heading = line in HEADINGS
        doc.setFont("Helvetica-Bold" if heading else "Helvetica", 12 if heading else 10)
        y -= 8 if heading else 0
        doc.drawString(72, y, line)
        y -= 18
    doc.showPage()
    doc.save()
    return path


def junk_pdf(path: Path) -> Path:
    """Random bytes with a .pdf name."""
    path.write_bytes(b"\x89\x00\xff\x10" + os.urandom(4096))
    return path


def empty_pdf(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def truncated_pdf(path: Path) -> Path:
    """The first 40% of a real PDF: header present, body and xref cut off."""
    whole = BytesIO()
    paper_pdf(whole, "A paper that will be cut short")
    data = whole.getvalue()
    path.write_bytes(data[: int(len(data) * 0.4)])
    return path


def encrypted_pdf(path: Path) -> Path:
    """A text PDF that needs a user password to open."""
    paper_pdf(path, "A locked paper", encrypt="s3cret")
    return path


def image_only_pdf(path: Path) -> Path:
    """A page holding only a picture (like a scan): no text layer at all."""
    image = Image.new("RGB", (400, 200), "white")
    for x in range(20, 380):
        for y in range(90, 110):
            image.putpixel((x, y), (0, 0, 0))
    doc = canvas.Canvas(str(path), pagesize=LETTER)
    doc.drawImage(ImageReader(image), 72, 400, width=400, height=200)
    doc.showPage()
    doc.save()
    return path
