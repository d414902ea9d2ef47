"""Write examples/example_paper.pdf: PaperMind's bundled demo paper (original text, reportlab).

Run: .venv/bin/python scripts/make_example_paper.py [OUTPUT]
The paper is fictional and says so on its first page; its content was written for PaperMind.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    FrameBreak,
    KeepTogether,
    NextPageTemplate,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from example_paper_text import ABSTRACT, AUTHORS, REFERENCES, SECTIONS, TITLE

W, H = letter
MARGIN, GUTTER, TOP_BLOCK = 60.0, 18.0, 280.0
COL_W = (W - 2 * MARGIN - GUTTER) / 2

BODY = ParagraphStyle("body", fontName="Times-Roman", fontSize=10, leading=12.4,
                      alignment=TA_JUSTIFY, firstLineIndent=10, spaceAfter=2)
FIRST = ParagraphStyle("first", parent=BODY, firstLineIndent=0)
TITLE_S = ParagraphStyle("title", fontName="Times-Bold", fontSize=17, leading=21, alignment=TA_CENTER)
AUTHOR_S = ParagraphStyle("author", fontName="Times-Roman", fontSize=10.5, leading=13, alignment=TA_CENTER)
AFFIL_S = ParagraphStyle("affil", parent=AUTHOR_S, fontName="Times-Italic", fontSize=9, leading=11)
ABS_HEAD = ParagraphStyle("abshead", fontName="Times-Bold", fontSize=10.5, leading=13,
                          alignment=TA_CENTER, spaceBefore=10, spaceAfter=4)
ABS_S = ParagraphStyle("abs", parent=BODY, leftIndent=36, rightIndent=36, firstLineIndent=0)
H1 = ParagraphStyle("h1", fontName="Times-Bold", fontSize=11, leading=14, spaceBefore=9, spaceAfter=4)
H2 = ParagraphStyle("h2", fontName="Times-Bold", fontSize=9.8, leading=12, spaceBefore=6, spaceAfter=3)
EQ = ParagraphStyle("eq", fontName="Times-Italic", fontSize=9.5, leading=12, alignment=TA_CENTER)
CAP = ParagraphStyle("cap", parent=BODY, fontSize=8.8, leading=10.6, firstLineIndent=0,
                     spaceBefore=4, spaceAfter=8)
REF = ParagraphStyle("ref", parent=BODY, fontSize=8.6, leading=10.4, firstLineIndent=0,
                     leftIndent=14, bulletIndent=0, spaceAfter=3)
NOTE = ParagraphStyle("note", parent=BODY, fontSize=7.5, leading=9, firstLineIndent=0)


def _decorate(canvas: object, doc: object) -> None:
    page = canvas.getPageNumber()  # type: ignore[attr-defined]
    canvas.saveState()  # type: ignore[attr-defined]
    canvas.setFont("Times-Roman", 8)  # type: ignore[attr-defined]
    if page > 1:
        canvas.drawCentredString(W / 2, H - 34, "Budgeted Evidence Retrieval for Long Documents")  # type: ignore[attr-defined]
    canvas.drawCentredString(W / 2, 30, str(page))  # type: ignore[attr-defined]
    canvas.restoreState()  # type: ignore[attr-defined]


def _templates() -> list[PageTemplate]:
    col_h = H - 2 * MARGIN
    first = [Frame(MARGIN, H - MARGIN - TOP_BLOCK, W - 2 * MARGIN, TOP_BLOCK, id="top"),
             Frame(MARGIN, MARGIN, COL_W, col_h - TOP_BLOCK, id="l1"),
             Frame(MARGIN + COL_W + GUTTER, MARGIN, COL_W, col_h - TOP_BLOCK, id="r1")]
    body = [Frame(MARGIN, MARGIN, COL_W, col_h, id="l"),
            Frame(MARGIN + COL_W + GUTTER, MARGIN, COL_W, col_h, id="r")]
    return [PageTemplate("first", first, onPage=_decorate),
            PageTemplate("body", body, onPage=_decorate)]


def _equation(text: str, label: str) -> Table:
    table = Table([[Paragraph(text, EQ), f"({label})"]], colWidths=[COL_W - 28, 28])
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                               ("FONT", (1, 0), (1, 0), "Times-Roman", 10),
                               ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                               ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
    return table


def _results_table(rows: list[list[str]]) -> Table:
    table = Table(rows, colWidths=[COL_W * 0.40, COL_W * 0.2, COL_W * 0.2, COL_W * 0.2])
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "Times-Roman", 8.5),
        ("FONT", (0, 0), (-1, 0), "Times-Bold", 8.5),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("LINEBELOW", (0, -1), (-1, -1), 0.8, colors.black),
        ("ALIGN", (1, 0), (-1, -1), "CENTER"),
    ]))
    return table


def _figure(values: list[tuple[str, float]]) -> Drawing:
    drawing = Drawing(COL_W, 120)
    drawing.add(Line(20, 20, COL_W - 10, 20))
    drawing.add(Line(20, 20, 20, 112))
    step = (COL_W - 40) / len(values)
    for i, (label, value) in enumerate(values):
        x = 28 + i * step
        drawing.add(Rect(x, 20, step * 0.6, value * 90, fillColor=colors.Color(0.25, 0.4, 0.65),
                         strokeColor=None))
        drawing.add(String(x, 8, label, fontName="Helvetica", fontSize=6))
    return drawing


def _body(story: list) -> None:
    for kind, *payload in SECTIONS:
        if kind == "h1":
            story.append(Paragraph(payload[0], H1))
        elif kind == "h2":
            story.append(Paragraph(payload[0], H2))
        elif kind == "p":
            story.append(Paragraph(payload[0], FIRST if payload[1:] == ["first"] else BODY))
        elif kind == "eq":
            story.append(_equation(payload[0], payload[1]))
        elif kind == "table":
            story.append(KeepTogether([Paragraph(payload[0], CAP), _results_table(payload[1])]))
        elif kind == "figure":
            story.append(KeepTogether([_figure(payload[1]), Paragraph(payload[0], CAP)]))
    story.append(Paragraph("References", H1))
    for number, text in enumerate(REFERENCES, start=1):
        story.append(Paragraph(f"[{number}] {text}", REF))


def build(output: Path) -> None:
    doc = BaseDocTemplate(str(output), pagesize=letter, leftMargin=MARGIN, rightMargin=MARGIN,
                          topMargin=MARGIN, bottomMargin=MARGIN, title=TITLE,
                          author=", ".join(name for name, _ in AUTHORS),
                          subject="PaperMind example paper (fictional)", invariant=1)
    doc.addPageTemplates(_templates())
    story: list = [NextPageTemplate("body"), Paragraph(TITLE, TITLE_S), Spacer(1, 10),
                   Paragraph(",&nbsp;&nbsp;&nbsp;".join(name for name, _ in AUTHORS), AUTHOR_S),
                   Paragraph(AUTHORS[0][1], AFFIL_S), Paragraph("Abstract", ABS_HEAD),
                   Paragraph(ABSTRACT, ABS_S), Spacer(1, 6),
                   Paragraph("This is a fictional paper written as PaperMind's bundled example; "
                             "its authors, data and results are invented.", NOTE),
                   FrameBreak()]
    _body(story)
    doc.build(story)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parents[1] / "examples" / "example_paper.pdf")
    target.parent.mkdir(parents=True, exist_ok=True)
    build(target)
    print(f"wrote {target}")
