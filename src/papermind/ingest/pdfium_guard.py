"""The one door to PDFium in this process.

PDFium is not thread-safe: two threads inside it at once (a page rendering while an upload
parses) corrupt its state or crash the process. Every PDFium call in papermind runs inside
``pdfium_lock()`` (parsing, rendering, uploads, jobs), and every PDFium object is closed
before the lock is released, so no finalizer runs PDFium code later on another thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pypdfium2 as pdfium

from papermind.errors import InputError

_LOCK = threading.RLock()


@contextmanager
def pdfium_lock() -> Iterator[None]:
    """Hold the process-wide PDFium lock (re-entrant within one thread)."""
    with _LOCK:
        yield


@contextmanager
def stored_pdf(path: Path) -> Iterator[pdfium.PdfDocument]:
    """The stored PDF at ``path``, open inside the lock and closed before it is released
    (InputError when it cannot be opened)."""
    with pdfium_lock():
        try:
            document = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError:
            raise InputError("the stored PDF cannot be opened") from None
        try:
            yield document
        finally:
            document.close()
