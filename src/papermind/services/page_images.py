"""Page images for the citation view: rendered once under the PDFium lock, then served
from a disk cache (``<home>/cache/pages/<paper id>/<page>@<scale>.png``).

A burst of requests for the pages of a new paper renders each page once: the first request
renders while the others wait for the lock, then find the cached file.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from papermind.errors import NotFoundError
from papermind.library.papers import PaperRepository

CACHED_SCALES_STEP = 0.25
"""Only scales on this grid are cached, so a client cannot fill the disk with variants."""


class PageImages:
    """PNG renderings of stored PDF pages, cached on disk."""

    def __init__(self, papers: PaperRepository, root: Path) -> None:
        self.papers = papers
        self.root = root

    def png(self, paper_id: str, number: int, scale: float) -> bytes:
        """PNG of page ``number`` of a stored PDF paper (full id or prefix)."""
        from papermind.ingest.page_image import render_page_png
        from papermind.ingest.pdfium_guard import pdfium_lock

        full_id = self.papers.resolve(paper_id)
        if self.papers.record(full_id).source_type != "pdf":
            raise NotFoundError("page images exist only for PDF papers")
        cached = self._cache_path(full_id, number, scale)
        if cached is not None and cached.is_file():
            return cached.read_bytes()
        with pdfium_lock():  # one render per page: later requests find the file
            if cached is not None and cached.is_file():
                return cached.read_bytes()
            png = render_page_png(self.papers.file_path(full_id), number, scale=scale,
                                  rotation=self._rotation(full_id, number))
            if cached is not None:
                _write_atomically(cached, png)
        return png

    def _rotation(self, paper_id: str, number: int) -> int:
        """How far the page is turned to show it upright (a page scanned sideways)."""
        pages = self.papers.get(paper_id).pages
        return pages[number - 1].rotation if 1 <= number <= len(pages) else 0

    def forget(self, paper_id: str) -> None:
        """Drop the cached images of a removed paper."""
        shutil.rmtree(self.root / paper_id, ignore_errors=True)

    def _cache_path(self, paper_id: str, number: int, scale: float) -> Path | None:
        steps = scale / CACHED_SCALES_STEP
        if abs(steps - round(steps)) > 1e-9:
            return None
        return self.root / paper_id / f"{number}@{round(steps) * CACHED_SCALES_STEP:g}.png"


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".tmp-{secrets.token_hex(6)}-{path.name}")
    temp.write_bytes(data)
    os.replace(temp, path)
