"""PDF input: open with PDFium, refuse unusable files with a clear message, lay out pages."""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from papermind.config import IngestSettings
from papermind.errors import IngestError
from papermind.ingest import ocr_engine
from papermind.ingest.furniture import split_furniture
from papermind.ingest.hidden_text import find_hidden, hidden_char_indices
from papermind.ingest.layout import LaidOutPage, RawFinding
from papermind.ingest.ocr import text_layer_usable
from papermind.ingest.pdf_layout import PageChars, page_lines
from papermind.ingest.pdf_scans import PageProgress, ocr_refusal, read_scanned
from papermind.ingest.pdf_streams import check_stream_sizes
from papermind.ingest.pdfium_guard import pdfium_lock
from papermind.ingest.reading_order import mark_block_starts, order_lines

_STAMP_CHARS = 200  # a text layer this short over a page-sized image is a stamp on a scan
_SCAN_SHARE = 0.6  # an image covering this share of the page makes it a scan


def _open(data: bytes, name: str) -> pdfium.PdfDocument:
    end = data.rfind(b"%%EOF")
    if end < 0 or len(data[end + 5:].strip(b"\x00\t\r\n\x0c ")) > 4096:
        raise IngestError(f"{name} is a truncated or damaged PDF (no end-of-file marker)",
                          hint="download the file again")
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc).lower()
        if "password" in message or "security" in message:
            raise IngestError(f"{name} is an encrypted (password-protected) PDF",
                              hint="remove the password and try again") from None
        raise IngestError(f"{name} is a damaged PDF that cannot be read",
                          hint="open it in a PDF viewer and save or print it to a new PDF") from None


def _layout_page(doc: pdfium.PdfDocument, index: int, settings: IngestSettings
                 ) -> tuple[LaidOutPage, list[RawFinding], bool]:
    """The page laid out from its text layer, its hidden-text findings, and whether that
    text layer is usable (else the page is a scan to read by OCR)."""
    try:
        page = doc[index]
    except pdfium.PdfiumError:
        raise IngestError(f"page {index + 1} is damaged and cannot be read",
                          hint="open the file in a PDF viewer and save it again") from None
    try:
        bbox = page.get_bbox()  # boxes live in this (unrotated) space, so do width and height
        width, height = bbox[2] - bbox[0], bbox[3] - bbox[1]
        textpage = page.get_textpage()
        chars = PageChars(textpage, bbox)
        findings, hidden_objects = find_hidden(page.raw, textpage.raw, index + 1, bbox,
                                               settings.hidden_font_pt)
        hidden = hidden_char_indices(textpage.raw, chars.count, hidden_objects) if hidden_objects else set()
        lines = page_lines(chars, index + 1, width, hidden)
        usable = text_layer_usable(chars.text()) and not (
            chars.count < _STAMP_CHARS and _mostly_image(page, bbox))
        textpage.close()
    finally:
        page.close()
    laid = LaidOutPage(number=index + 1, width=width, height=height)
    laid.furniture = [ln for ln in lines if ln.kind != "text"]
    laid.lines = [ln for ln in lines if ln.kind == "text"]
    if len(laid.furniture) >= 3 and len(laid.furniture) >= 2 * len(laid.lines):
        laid.lines, laid.furniture, laid.rotated = lines, [], True  # a landscape page
        for line in laid.lines:
            line.kind = "text"
    return laid, findings, usable


def _mostly_image(page: pdfium.PdfPage, bbox: tuple[float, float, float, float]) -> bool:
    """Whether one image covers most of the page (a scan, perhaps under a stamped line)."""
    area = max((bbox[2] - bbox[0]) * (bbox[3] - bbox[1]), 1.0)
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
        x0, y0, x1, y1 = image.get_bounds()
        if (x1 - x0) * (y1 - y0) >= _SCAN_SHARE * area:
            return True
    return False


def _read(data: bytes, name: str, settings: IngestSettings
          ) -> tuple[list[LaidOutPage], list[RawFinding], list[int]]:
    """Pages laid out from their text layers, findings, and the indices of scanned pages."""
    doc = _open(data, name)
    try:
        if len(doc) == 0:
            raise IngestError(f"{name} is a PDF without pages")
        if len(doc) > settings.max_pages:
            raise IngestError(f"{name} has {len(doc)} pages; the limit is {settings.max_pages}",
                              hint="raise ingest.max_pages to accept it")
        pages: list[LaidOutPage] = []
        findings: list[RawFinding] = []
        scanned: list[int] = []
        for index in range(len(doc)):
            laid, page_findings, usable = _layout_page(doc, index, settings)
            pages.append(laid)
            findings.extend(page_findings)
            if settings.ocr == "force" or not usable:
                scanned.append(index)
    finally:
        doc.close()
    return pages, findings, scanned


def pdf_pages(data: bytes, name: str, settings: IngestSettings,
              on_page: PageProgress | None = None
              ) -> tuple[list[LaidOutPage], list[RawFinding], list[str]]:
    """Pages with flow lines in reading order, hidden-text findings, and warnings; pages
    without a usable text layer are read by OCR when ``settings.ocr`` and the extra allow
    (``on_page`` hears each one)."""
    check_stream_sizes(data, name, max_stream_mb=settings.max_stream_mb,
                       max_total_mb=settings.max_decoded_mb)
    with pdfium_lock():
        pages, findings, scanned = _read(data, name, settings)
    if scanned and settings.ocr != "off" and ocr_engine.available():
        read_scanned(data, name, pages, scanned, settings, on_page)
    if not any(p.lines for p in pages):
        raise ocr_refusal(name, settings)
    split_furniture(pages)
    for page in pages:
        if not page.rotated:
            page.lines = order_lines(page.lines, page.width)
        if page.lines:
            mark_block_starts(page.lines)
    empty = [p.number for p in pages if not p.lines]
    warnings = [f"pages without text: {', '.join(map(str, empty))}"] if empty else []
    unread = [i + 1 for i in scanned if not pages[i].ocr]
    if unread:
        warnings.append(f"pages without a usable text layer, not read by OCR: "
                        f"{', '.join(map(str, unread))} ({ocr_refusal(name, settings).hint})")
    return pages, findings, warnings
