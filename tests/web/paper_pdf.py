"""The deep-reading test paper (PAPER_MD) as a one-page PDF: one sentence per drawn line,
so the scripted reader's quotes are found on real lines with real boxes."""

from __future__ import annotations

import re
from pathlib import Path

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from tests.support.reading_script import PAPER_MD


def _lines(markdown: str) -> list[tuple[str, str]]:
    """(style, text) per line to draw: 'title', 'heading' or 'body' (one sentence each)."""
    out: list[tuple[str, str]] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        text = " ".join(block.split())
        if text.startswith("# "):
            out.append(("title", text[2:]))
        elif text.startswith("## "):
            out.append(("heading", text[3:]))
        else:
            out += [("body", s) for s in re.split(r"(?<=\.)\s+", text) if s]
    return out


def reading_paper_pdf(path: Path) -> Path:
    doc = canvas.Canvas(str(path), pagesize=LETTER)
    doc.setTitle("Sparse Mixture Routing for Efficient Transformers")
    y = 720.0
    fonts = {"title": ("Helvetica-Bold", 16), "heading": ("Helvetica-Bold", 12),
             "body": ("Helvetica", 10)}
    for style, text in _lines(PAPER_MD):
        name, size = fonts[style]
        y -= 10 if style == "heading" else 0
        doc.setFont(name, size)
        doc.drawString(72, y, text)
        y -= size + 8
    doc.showPage()
    doc.save()
    return path
