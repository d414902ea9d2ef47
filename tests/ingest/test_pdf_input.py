"""PDF ingestion on small generated PDFs: bad input, hidden text, layout basics."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import IngestSettings
from papermind.errors import IngestError
from papermind.ingest import parse_bytes, parse_file
from tests.ingest.pdf_factory import (
    accented_name_pdf,
    encrypted_pdf,
    hidden_text_pdf,
    image_only_pdf,
    two_column_pdf,
)


def _error(path: Path, settings: IngestSettings | None = None) -> str:
    with pytest.raises(IngestError) as info:
        parse_file(path, settings=settings)
    return str(info.value)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert "is empty" in _error(path)


def test_binary_junk(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(bytes(range(256)) * 40)
    assert "neither a PDF nor UTF-8 text" in _error(path)


def test_truncated_pdf(tmp_path: Path) -> None:
    whole = tmp_path / "whole.pdf"
    two_column_pdf(whole)
    path = tmp_path / "truncated.pdf"
    path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    assert "truncated or damaged PDF" in _error(path)


def test_corrupt_pdf_with_end_marker(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.pdf"
    path.write_bytes(b"%PDF-1.4\n" + b"garbage " * 500 + b"\n%%EOF\n")
    assert "damaged PDF" in _error(path)


def test_encrypted_pdf(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    encrypted_pdf(path)
    assert "encrypted (password-protected)" in _error(path)


def test_image_only_pdf_without_text_says_so(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    image_only_pdf(path)  # bars, no letters: OCR (when installed) finds no text either
    message = _error(path)
    assert "no text layer" in message


def test_size_and_page_limits(tmp_path: Path) -> None:
    path = tmp_path / "doc.pdf"
    two_column_pdf(path)
    assert "the limit is 0.001 MiB" in _error(path, IngestSettings(max_file_mb=0.001))
    assert "the limit is 0" in _error(path, IngestSettings(max_pages=0))


def test_hidden_text_is_flagged_and_kept_out_of_the_flow(tmp_path: Path) -> None:
    path = tmp_path / "hidden.pdf"
    hidden = hidden_text_pdf(path)
    paper = parse_file(path)
    by_text = {f.text: f for f in paper.findings}
    assert set(by_text) == set(hidden.values())  # 100% flagged, nothing visible flagged
    assert by_text[hidden["white"]].reason.startswith("white fill")
    assert by_text[hidden["tiny"]].reason == "font 1.0 pt"
    assert by_text[hidden["offpage"]].reason == "outside the page box"
    assert by_text[hidden["clipped"]].reason.startswith("clipped away")
    assert by_text[hidden["white"]].severity == by_text[hidden["tiny"]].severity == "high"
    assert by_text[hidden["offpage"]].severity == "medium"
    assert all(f.kind == "hidden_text" and f.page == 1 for f in paper.findings)
    flow = " ".join(line.text for line in paper.lines())
    assert "Visible line 6" in flow and "final visible sentence" in flow
    assert "White on a dark banner is visible." in flow  # white text over a dark box
    for text in hidden.values():
        assert text.split()[0] not in flow


def test_two_column_reading_order_boxes_and_page_number(tmp_path: Path) -> None:
    path = tmp_path / "columns.pdf"
    two_column_pdf(path)
    paper = parse_bytes(path.read_bytes(), "columns.pdf")
    page = paper.page(1)
    texts = [line.text for line in page.lines]
    assert texts[0] == "Interleaved Columns Test"
    assert texts[1:21] == [f"Left column sentence number {i} continues here." for i in range(1, 21)]
    assert texts[21:] == [f"Right column sentence number {i} goes on." for i in range(1, 21)]
    assert [line.n for line in page.lines] == list(range(1, 42))
    assert sorted((f.kind, f.text) for f in page.furniture) == [
        ("page_number", "7"), ("stamp", "arXiv:2101.00001v2 [cs.CL] 3 Jan 2021")]
    title = page.lines[0].box
    assert title is not None and 0 < title.y0 < title.y1 < 80  # top-left origin, y down
    assert all(ln.box and 0 <= ln.box.x0 < ln.box.x1 <= page.width for ln in page.lines)
    assert paper.title == "Interleaved Columns Test"


def test_rotated_page_text_is_kept_in_the_flow(tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    path = tmp_path / "rotated.pdf"
    c = canvas.Canvas(str(path))
    c.setPageRotation(90)
    for i in range(5):
        c.drawString(72, 500 - 14 * i, f"Rotated table row {i} with values")
    c.showPage()
    c.save()
    page = parse_file(path).page(1)
    assert [ln.text for ln in page.lines] == [f"Rotated table row {i} with values" for i in range(5)]


def test_pdf_detected_by_content_not_name(tmp_path: Path) -> None:
    path = tmp_path / "columns.pdf"
    two_column_pdf(path)
    paper = parse_bytes(path.read_bytes(), "upload.bin")
    assert paper.source_type == "pdf" and paper.source_name == "upload.bin"


def test_spacing_accents_drawn_apart_compose_with_their_letters(tmp_path: Path) -> None:
    path = tmp_path / "accents.pdf"
    accented_name_pdf(path)
    assert parse_file(path).pages[0].lines[0].text == "Zoltán Gyöngyi"
