"""Scanned PDFs: born-digital pages rendered at 200 dpi, rebuilt image-only, read by OCR."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from papermind.config import IngestSettings
from papermind.domain import Paper
from papermind.errors import IngestError
from papermind.grounding.locator import QuoteLocator
from papermind.ingest import ocr_engine, parse_file
from tests.ingest.scan_pdf import (
    SENTENCE,
    char_error_rate,
    scanned_pdf,
    text_layer,
    two_column_paper_pdf,
)

needs_ocr = pytest.mark.skipif(not ocr_engine.available(),
                               reason="the 'ocr' extra (rapidocr) is not installed")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_column_paper_pdf(tmp_path_factory.mktemp("ocr") / "paper.pdf")


@pytest.fixture(scope="module")
def scanned(source: Path) -> tuple[Paper, Path, Path]:
    """Page 1 upright; page 2 scanned sideways (its image turned 90 degrees clockwise)."""
    if not ocr_engine.available():
        pytest.skip("the 'ocr' extra (rapidocr) is not installed")
    path = scanned_pdf(source, source.with_name("scan.pdf"), sideways={2: 90})
    return parse_file(path), source, path


@needs_ocr
def test_scanned_pages_read_with_low_character_error_rate(scanned) -> None:
    paper, source, _ = scanned
    for page, expected in zip(paper.pages, text_layer(source), strict=True):
        assert page.ocr
        found = " ".join(line.text for line in page.lines + page.furniture)
        assert char_error_rate(found, expected) <= 0.05, (page.number, found)


@needs_ocr
def test_every_line_has_a_box_inside_its_page_and_a_confidence(scanned) -> None:
    paper, _, _ = scanned
    for page in paper.pages:
        assert page.lines
        for line in page.lines:
            assert line.box is not None and line.box.page == page.number
            assert 0 <= line.box.x0 < line.box.x1 <= page.width
            assert 0 <= line.box.y0 < line.box.y1 <= page.height
            assert line.confidence is not None and 0.5 <= line.confidence <= 1


@needs_ocr
def test_sideways_scan_is_turned_upright(scanned) -> None:
    paper, _, _ = scanned
    upright, sideways = paper.pages
    assert upright.rotation == 0 and sideways.rotation == 270
    assert (sideways.width, sideways.height) == (upright.width, upright.height)  # portrait
    assert [ln.text for ln in sideways.lines][0] == "References"
    for line in sideways.lines:  # lines run across the page, near the top as printed
        assert line.box is not None and line.box.x1 - line.box.x0 > line.box.y1 - line.box.y0
        assert line.box.x0 < 100 and line.box.y1 < 150


@needs_ocr
def test_two_columns_sections_references_and_citations(scanned) -> None:
    paper, _, _ = scanned
    texts = [line.text for line in paper.pages[0].lines]
    assert texts.index("recogniser reads one at a time [2].") < texts.index("3 Results")
    assert [s.title for s in paper.sections] == [
        "Introduction", "Method", "Results", "Conclusion", "References"]
    assert len(paper.references) >= 2 and paper.references[0].year == 1998
    assert any(c.marker == "[1]" and c.reference_keys == ["1"] for c in paper.citations)


@needs_ocr
def test_a_sentence_is_located_on_ocr_text(scanned) -> None:
    paper, _, _ = scanned
    evidence = QuoteLocator(paper).locate(SENTENCE)
    assert evidence.anchor is not None and evidence.anchor.page == 1
    assert evidence.anchor.boxes
    changed = QuoteLocator(paper).locate(SENTENCE.replace("2.4", "3.4"))
    assert changed.support != "supported" or changed.anchor is None


@needs_ocr
def test_mixed_pdf_reads_only_the_scanned_pages(source: Path, tmp_path: Path) -> None:
    path = scanned_pdf(source, tmp_path / "mixed.pdf", keep_text={1})
    calls: list[tuple[int, int]] = []
    from papermind.ingest import parse_bytes
    paper = parse_bytes(path.read_bytes(), path.name, on_page=lambda d, t: calls.append((d, t)))
    assert [p.ocr for p in paper.pages] == [False, True]
    assert all(ln.confidence is None for ln in paper.pages[0].lines)
    assert calls == [(1, 1)]


@needs_ocr
def test_rotate_flag_on_a_sideways_image_needs_no_turn(tmp_path: Path) -> None:
    source = two_column_paper_pdf(tmp_path / "one.pdf", references=False)
    path = scanned_pdf(source, tmp_path / "flag.pdf", sideways={1: 90}, rotate_flag={1: 270})
    page = parse_file(path).pages[0]
    assert page.ocr and page.rotation == 0 and page.height > page.width
    assert "1 Introduction" in [ln.text for ln in page.lines]


def test_without_the_extra_a_scan_is_refused_naming_it(source: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = scanned_pdf(source, tmp_path / "scan.pdf")
    monkeypatch.setattr(ocr_engine, "available", lambda: False)
    with pytest.raises(IngestError) as info:
        parse_file(path)
    assert "no text layer" in str(info.value) and "'ocr' extra" in (info.value.hint or "")


def test_ocr_off_and_page_limit(source: Path, tmp_path: Path) -> None:
    path = scanned_pdf(source, tmp_path / "scan.pdf")
    with pytest.raises(IngestError) as info:  # nothing is read by OCR before the limits
        parse_file(path, settings=IngestSettings(ocr="off"))
    assert "ingest.ocr" in (info.value.hint or "")
    if ocr_engine.available():
        with pytest.raises(IngestError, match="2 pages to read by OCR; the limit is 1"):
            parse_file(path, settings=IngestSettings(ocr_max_pages=1))


def _cjk_font() -> Path | None:
    candidates = [Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
                  Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
                  Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")]
    return next((p for p in candidates if p.is_file()), None)


@needs_ocr
@pytest.mark.skipif(_cjk_font() is None, reason="no CJK font (apt-get install fonts-wqy-zenhei)")
def test_chinese_scan_has_no_spaces_between_chinese_characters(tmp_path: Path) -> None:
    from tests.ingest.cjk_pdf import BODY, TITLE, chinese_paper_pdf

    source = chinese_paper_pdf(tmp_path / "zh.pdf", embedded=True)
    paper = parse_file(scanned_pdf(source, tmp_path / "zh-scan.pdf"))
    text = "".join(line.text for page in paper.pages for line in page.lines)
    assert not re.search(r"[\u4e00-\u9fff] +[\u4e00-\u9fff]", "\n".join(
        line.text for page in paper.pages for line in page.lines))
    assert char_error_rate(text[:len(TITLE)], TITLE) <= 0.1
    joined = next(p.text for p in paper.paragraphs if p.text.startswith("近年来"))
    assert char_error_rate(joined[:60], BODY[:60]) <= 0.1


@needs_ocr
def test_page_image_and_text_layer_of_a_sideways_page_are_upright(scanned) -> None:
    import io

    import numpy as np
    from PIL import Image

    from papermind.ingest.page_image import render_page_png
    from papermind.ingest.page_words import page_words
    from tests.ingest.scan_pdf import page_images

    paper, source, path = scanned
    page = paper.pages[1]
    shown = Image.open(io.BytesIO(render_page_png(path, 2, scale=1.0, rotation=page.rotation)))
    assert shown.size == (round(page.width), round(page.height))
    printed = page_images(source, dpi=72)[1].resize(shown.size)
    difference = np.abs(np.asarray(shown.convert("L"), float) - np.asarray(printed.convert("L"), float))
    assert difference.mean() < 8  # the same page, upright (sideways it differs everywhere)
    words = page_words(path, paper.pages)[1].words
    assert [w.text for w in words][:1] == ["References"]
    boxes = {line.n: line.box for line in page.lines}
    for word in words:
        box = boxes[word.line]
        assert box is not None and box.x0 - 0.5 <= word.box.x0 < word.box.x1 <= box.x1 + 0.5


@needs_ocr
def test_engine_loads_and_reads_with_the_network_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the OCR engine tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(ocr_engine, "_ENGINES", {})  # a fresh engine loads its models here
    image = Image.new("RGB", (900, 120), "white")
    font = ImageFont.truetype("DejaVuSans.ttf", 40) if Path(
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").is_file() else ImageFont.load_default(40)
    ImageDraw.Draw(image).text((30, 30), "Offline reading works", fill="black", font=font)
    lines = ocr_engine.read_lines(np.asarray(image), threads=1)
    assert [line.text for line in lines] == ["Offline reading works"]


@needs_ocr
def test_a_scan_under_a_stamped_text_line_is_still_read(tmp_path: Path) -> None:
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    from tests.ingest.scan_pdf import page_images

    source = two_column_paper_pdf(tmp_path / "one.pdf", references=False)
    path = tmp_path / "stamped.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.drawImage(ImageReader(page_images(source)[0]), 0, 0, width=612, height=792)
    c.setFont("Helvetica", 7)  # a library's download stamp: real text, but not the page's
    c.drawString(20, 12, "Downloaded from the archive on 1 March 2026")
    c.showPage()
    c.save()
    page = parse_file(path).pages[0]
    assert page.ocr and "1 Introduction" in [line.text for line in page.lines]


@needs_ocr
def test_upside_down_and_sideways_images_are_turned_back(tmp_path: Path) -> None:
    import numpy as np

    from papermind.ingest.ocr import turned, upright_turn
    from tests.ingest.scan_pdf import page_images

    source = two_column_paper_pdf(tmp_path / "one.pdf", references=False)
    image = np.asarray(page_images(source, dpi=100)[0])
    for degrees in (0, 90, 180, 270):
        assert (upright_turn(turned(image, degrees)) + degrees) % 360 == 0, degrees


@needs_ocr
def test_force_reads_a_born_digital_page_by_ocr(tmp_path: Path) -> None:
    source = two_column_paper_pdf(tmp_path / "one.pdf", references=False)
    born, forced = parse_file(source), parse_file(source, settings=IngestSettings(ocr="force"))
    assert not born.pages[0].ocr and forced.pages[0].ocr
    assert char_error_rate(" ".join(ln.text for ln in forced.pages[0].lines),
                           " ".join(ln.text for ln in born.pages[0].lines)) <= 0.02


def test_ocr_lines_become_flow_lines_in_points(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    from papermind.ingest.ocr import ocr_page, text_layer_usable

    found = [ocr_engine.OcrLine("4Conclusion", 0.91, (100, 50, 400, 90)),
             ocr_engine.OcrLine("基于 注意力 机制 的 方法 in 2 steps", 0.8, (100, 100, 900, 140)),
             ocr_engine.OcrLine("past the edge", 0.7, (1500, 200, 1800, 240))]
    monkeypatch.setattr(ocr_engine, "read_lines", lambda image, threads=2: found)
    page = ocr_page(np.full((2200, 1700, 3), 255, np.uint8), 3, 200 / 72)
    assert page.ocr and (round(page.width), round(page.height)) == (612, 792)
    assert [ln.text for ln in page.lines] == ["4 Conclusion", "基于注意力机制的方法 in 2 steps",
                                              "past the edge"]
    assert page.lines[0].box == pytest.approx((36.0, 18.0, 144.0, 32.4))
    assert page.lines[2].box is not None and page.lines[2].box[2] <= page.width
    assert [ln.confidence for ln in page.lines] == [0.91, 0.8, 0.7]
    assert not text_layer_usable("") and not text_layer_usable("\ue000\ue001\ue002 a")
    assert text_layer_usable("A text layer with words.")


@needs_ocr
def test_a_real_chinese_journal_page_stays_upright(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    from tests.support.shared_data import SHARED_DATA

    journal = SHARED_DATA / "pdfs" / "zh" / "cjc_jisuanji_xuebao_sample.pdf"
    if not journal.is_file():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    document, first = pdfium.PdfDocument(str(journal)), pdfium.PdfDocument.new()
    first.import_pages(document, pages=[0])
    first.save(str(tmp_path / "first.pdf"))
    first.close()
    document.close()
    page = parse_file(scanned_pdf(tmp_path / "first.pdf", tmp_path / "scan.pdf")).pages[0]
    assert page.rotation == 0  # the direction classifier alone turned it over
    found = " ".join(line.text for line in page.furniture + page.lines)
    assert char_error_rate(found, text_layer(tmp_path / "first.pdf")[0]) <= 0.15
