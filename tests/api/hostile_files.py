"""Hostile and awkward files for the robustness tests and benches (generated, never stored).

``bomb_pdf`` writes a valid one-page PDF with real text whose content stream is padded with
``inflated_mb`` MiB of zeros; ``pages_pdf`` writes a
multi-page text PDF for the page-image bursts.
"""

from __future__ import annotations

import zlib
from io import BytesIO
from pathlib import Path

import reportlab
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from tests.support.pdf_bytes import TEXT, one_page_pdf, stream


def _deflated_padding(inflated_mb: int, level: int) -> bytes:
    """zlib data of ``TEXT`` followed by ``inflated_mb`` MiB of zeros, built incrementally."""
    packer = zlib.compressobj(level)
    out = [packer.compress(TEXT)]
    block = b"\0" * (1 << 20)  # NUL is white space in a content stream
    for _ in range(inflated_mb):
        out.append(packer.compress(block))
    out.append(packer.flush())
    return b"".join(out)


def bomb_pdf(path: Path, inflated_mb: int, *, level: int = 1) -> Path:
    """A valid PDF whose single FlateDecode stream inflates to ``inflated_mb`` MiB
    (level 1: fast to build, ~220:1; level 9: ~1000:1, a 2 GiB bomb in a 2 MB file)."""
    return one_page_pdf(path, [stream(_deflated_padding(inflated_mb, level), "/FlateDecode")])


def _embedded_fonts() -> tuple[str, str]:
    """Fonts shipped with reportlab, embedded like a real paper's: Type 1 and TrueType."""
    if "VeraBd" not in pdfmetrics.getRegisteredFontNames():
        folder = Path(reportlab.__file__).parent / "fonts"
        face = pdfmetrics.EmbeddedType1Face(str(folder / "DarkGardenMK.afm"),
                                            str(folder / "DarkGardenMK.pfb"))
        pdfmetrics.registerTypeFace(face)
        pdfmetrics.registerFont(pdfmetrics.Font("DarkGarden", face.name, "WinAnsiEncoding"))
        pdfmetrics.registerFont(TTFont("VeraBd", "VeraBd.ttf"))
    return "DarkGarden", "VeraBd"


def pages_pdf(path: Path | BytesIO, pages: int = 12, title: str = "Burst test paper"
              ) -> Path | BytesIO:
    """A ``pages``-page PDF with embedded fonts, text and a drawing on every page."""
    regular, bold = _embedded_fonts()
    doc = canvas.Canvas(path if isinstance(path, BytesIO) else str(path), pagesize=LETTER)
    doc.setTitle(title)
    for number in range(1, pages + 1):
        doc.setFont(bold, 14)
        doc.drawString(72, 720, f"{title}, page {number}")
        doc.setFont(regular, 10)
        for line in range(30):
            doc.drawString(72, 690 - 14 * line,
                           f"Line {line + 1} of page {number}: rendering must not race parsing.")
        doc.circle(300, 120, 40 + number, stroke=1, fill=0)
        doc.showPage()
    doc.save()
    return path
