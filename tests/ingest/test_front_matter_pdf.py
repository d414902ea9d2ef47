"""Front matter of small PDFs made here with chosen font sizes: the author block never
joins the title, markers stay apart from names, a scan's title comes from its glyph sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papermind.ingest import ocr_engine, parse_file
from papermind.ingest.glyph_sizes import glyph_size
from papermind.ingest.layout import FlowLine
from papermind.services.catalog import parsed_metadata
from papermind.services.export_formats import FORMATS
from papermind.services.exports import render
from tests.ingest.scan_pdf import scanned_pdf

TITLE = ("Evaluating Long-Form Summarization with", "Fine-Grained Human Annotations")
NAMES = [("Kalpesh Krishna", "1"), ("Erin Bransom", "2"), ("Bailey Kuehl", "2")]
BODY = "Long summaries are judged by readers and by models alike in many recent studies."


def _acl_page(path: Path, *, superscript: bool, author_size: float = 12) -> Path:
    """An ACL-like first page: a two-line 15 pt bold title, a bold author line whose names
    carry markers (raised digits, or daggers set inline), affiliations, an abstract."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 15)
    for k, line in enumerate(TITLE):
        c.drawCentredString(306, 720 - 18 * k, line)
    x = 150.0
    for name, mark in NAMES:
        c.setFont("Times-Bold", author_size)
        c.drawString(x, 678, name)
        x += c.stringWidth(name, "Times-Bold", author_size)
        if superscript:
            c.setFont("Times-Roman", 7)
            c.drawString(x, 683, mark)
        else:
            c.drawString(x, 678, "\u2020")
        x += 20
    c.setFont("Times-Roman", 10)
    c.drawCentredString(306, 660, "1University of Massachusetts Amherst   2Allen Institute for AI")
    c.setFont("Times-Bold", 12)
    c.drawString(72, 620, "Abstract")
    c.setFont("Times-Roman", 10)
    for i in range(24):
        c.drawString(72, 600 - 12 * i, BODY)
    c.save()
    return path


@pytest.mark.parametrize(("superscript", "marks"), [(True, [["1"], ["2"], ["2"]]),
                                                    (False, [["†"], ["†"], ["†"]])])
def test_a_marked_author_line_in_the_title_face_is_not_title(tmp_path: Path, superscript: bool,
                                                              marks: list[list[str]]) -> None:
    paper = parse_file(_acl_page(tmp_path / "acl.pdf", superscript=superscript))
    assert paper.title == " ".join(TITLE) and paper.title_source == "first_page"
    assert paper.authors == [name for name, _ in NAMES]
    assert paper.author_marks == marks


def test_an_author_line_as_big_as_the_title_still_parts_from_it(tmp_path: Path) -> None:
    paper = parse_file(_acl_page(tmp_path / "acl.pdf", superscript=False, author_size=15))
    assert paper.title == " ".join(TITLE)
    assert paper.authors == [name for name, _ in NAMES]


def test_glyph_size_follows_the_type_not_the_box_height() -> None:
    big = FlowLine(page=1, text="Fine-Grained Human Annotations", box=(72, 0, 72 + 205, 14),
                   confidence=0.99)
    small = FlowLine(page=1, text="Fine-Grained Human Annotations", box=(72, 0, 72 + 137, 14),
                     confidence=0.99)
    assert glyph_size(big) is not None and glyph_size(small) is not None
    assert glyph_size(big) > 1.4 * glyph_size(small)  # type: ignore[operator]
    assert glyph_size(FlowLine(page=1, text="Abs", box=(0, 0, 20, 10))) is None


@pytest.mark.skipif(not ocr_engine.available(), reason="the 'ocr' extra (rapidocr) is not installed")
def test_a_scanned_title_keeps_its_second_line_and_one_abstract(tmp_path: Path) -> None:
    source = _acl_page(tmp_path / "acl.pdf", superscript=False)
    paper = parse_file(scanned_pdf(source, tmp_path / "scan.pdf"))
    assert paper.ocr_pages == [1]
    assert paper.title.casefold() == " ".join(TITLE).casefold()
    assert [s.title for s in paper.sections if s.kind == "abstract"] == ["Abstract"]
    assert not any(word in author for author in paper.authors for word in ("Fine", "Human"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_exported_names_carry_no_markers(tmp_path: Path, fmt: str) -> None:
    paper = parse_file(_acl_page(tmp_path / "acl.pdf", superscript=True))
    text = render([("krishna", parsed_metadata(paper))], fmt)
    assert "Krishna" in text and "Kuehl" in text and "Fine-Grained" in text
    assert not any(f"{surname}{mark}" in text for surname in ("Krishna", "Bransom", "Kuehl")
                   for mark in ("1", "2", "†"))
