"""Page images for the citation view: rendered once (by the parsing worker process, under
its limits), then served from a disk cache (``<home>/cache/pages/<paper id>/<page>@<scale>.png``).

A burst of requests for the pages of a new paper renders each page once: the first request
renders while the others wait for the lock, then find the cached file.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from papermind.disk_writes import write_atomically
from papermind.errors import NotFoundError, StorageError
from papermind.library.papers import PaperRepository

log = logging.getLogger(__name__)

CACHED_SCALES_STEP = 0.25
"""Only scales on this grid are cached, so a client cannot fill the disk with variants."""


class PageImages:
    """PNG renderings of stored PDF pages, cached on disk."""

    def __init__(self, papers: PaperRepository, root: Path, *,
                 render: Callable[[Path, int, float, int], bytes]) -> None:
        self.papers = papers
        self.root = root
        self.render = render
        self._lock = threading.Lock()

    def png(self, paper_id: str, number: int, scale: float) -> bytes:
        """PNG of page ``number`` of a stored PDF paper (full id or prefix)."""
        full_id = self.papers.resolve(paper_id)
        if self.papers.record(full_id).source_type != "pdf":
            raise NotFoundError("page images exist only for PDF papers")
        cached = self._cache_path(full_id, number, scale)
        if cached is not None and cached.is_file():
            return cached.read_bytes()
        with self._lock:  # one render per page: later requests find the file
            if cached is not None and cached.is_file():
                return cached.read_bytes()
            png = self.render(self.papers.file_path(full_id), number, scale,
                              self._rotation(full_id, number))
            if cached is not None:
                _keep(cached, png)
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


def _keep(path: Path, data: bytes) -> None:
    """Cache a rendering; on a full disk the page is served uncached (the log says why)."""
    try:
        write_atomically(path, data)
    except StorageError as err:
        log.warning("page image not cached: %s", err)
