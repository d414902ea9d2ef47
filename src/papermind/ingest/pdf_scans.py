"""OCR of a PDF's scanned pages, one page at a time, inside the parse.

Each page is rendered under the PDFium lock (the document is opened again for it, so the
lock is not held while the engine runs); the upright image is read by the OCR engine
outside the lock, and its memory is given back before the next page: what a scan needs is
what its largest page needs, not the sum of its pages. ``on_page(done, total)`` hears each
finished page. A page that does not fit the parsing worker's memory is refused in one line
that names ``ingest.worker_memory_mb``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pypdfium2 as pdfium

from papermind.config import IngestSettings
from papermind.errors import IngestError
from papermind.ingest import ocr_engine
from papermind.ingest.layout import LaidOutPage
from papermind.ingest.ocr import ocr_page, turned, upright_turn
from papermind.ingest.page_image import MAX_PIXELS
from papermind.ingest.pdfium_guard import pdfium_lock

PageProgress = Callable[[int, int], None]
"""``on_page(done, total)``: pages read by OCR so far, of those to read."""


def read_scanned(data: bytes, name: str, pages: list[LaidOutPage], indices: list[int],
                 settings: IngestSettings, on_page: PageProgress | None = None) -> None:
    """Replace ``pages[i]`` for each ``i`` in ``indices`` by its OCR reading (in place)."""
    if len(indices) > settings.ocr_max_pages:
        raise IngestError(f"{name} has {len(indices)} pages to read by OCR; the limit is "
                          f"{settings.ocr_max_pages}",
                          hint="raise ingest.ocr_max_pages to accept it")
    for done, index in enumerate(indices, start=1):
        try:
            pages[index] = _read_page(data, index, settings)
        except Exception as error:
            if not ocr_engine.out_of_memory(error):
                raise
            raise memory_refusal(name, index + 1, settings) from None
        finally:
            ocr_engine.release_memory()
        if on_page is not None:
            on_page(done, len(indices))


def _read_page(data: bytes, index: int, settings: IngestSettings) -> LaidOutPage:
    image, scale = _render(data, index, settings.ocr_dpi / 72)
    turn = upright_turn(image, threads=settings.ocr_threads)
    laid = ocr_page(turned(image, turn), index + 1, scale, threads=settings.ocr_threads)
    laid.turn = turn
    return laid


def memory_refusal(name: str, page: int, settings: IngestSettings) -> IngestError:
    """One line for a page the OCR engine could not read within the memory it has."""
    return IngestError(
        f"{name}: page {page} did not fit in memory while read by OCR (the parsing worker "
        f"has ingest.worker_memory_mb = {settings.worker_memory_mb} MiB)",
        hint="raise ingest.worker_memory_mb (PAPERMIND_INGEST__WORKER_MEMORY_MB), e.g. to "
             f"{2 * settings.worker_memory_mb}, or lower ingest.ocr_dpi")


def _render(data: bytes, index: int, scale: float) -> tuple[np.ndarray, float]:
    """RGB pixels of page ``index`` (its /Rotate applied) and the scale used."""
    with pdfium_lock():
        document = pdfium.PdfDocument(data)
        try:
            page = document[index]
            try:
                width, height = page.get_size()
                scale = min(scale, (MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
                bitmap = page.render(scale=scale)
                try:
                    image = np.array(bitmap.to_pil().convert("RGB"))
                finally:
                    bitmap.close()
            finally:
                page.close()
        finally:
            document.close()
    return image, scale


def ocr_refusal(name: str, settings: IngestSettings) -> IngestError:
    """The error for a PDF whose pages have no usable text and were not read by OCR."""
    if settings.ocr == "off":
        hint = "set ingest.ocr to 'auto' to read scanned pages by OCR"
    elif not ocr_engine.available():
        hint = ocr_engine.EXTRA_HINT
    else:
        hint = "OCR found no text on its pages either"
    return IngestError(f"{name} has no text layer (scanned or image-only PDF)", hint=hint)
