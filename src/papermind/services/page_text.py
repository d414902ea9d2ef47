"""The reader's text layer: word boxes of a stored PDF's pages, read once and cached on disk
(``<home>/cache/words/<paper id>.json``); papers without a PDF have none."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import TypeAdapter

from papermind.disk_writes import write_atomically
from papermind.domain import Page, Paper
from papermind.domain.text_layer import PageWords
from papermind.errors import StorageError
from papermind.library.papers import PaperRepository

log = logging.getLogger(__name__)

CACHE_VERSION = 1
"""Bumped when the word boxes are computed differently, so old caches are read again."""
_PAGES = TypeAdapter(list[PageWords])


class PageText:
    """Word boxes of stored PDF papers, cached on disk."""

    def __init__(self, papers: PaperRepository, root: Path, *,
                 read_words: Callable[[Path, Sequence[Page]], list[PageWords]]) -> None:
        self.papers = papers
        self.root = root
        self.read_words = read_words

    def words(self, paper: Paper) -> list[PageWords]:
        """Every page's words with boxes; [] for a paper that is not a PDF."""
        if self.papers.record(paper.id).source_type != "pdf":
            return []
        cached = self.root / f"{paper.id}.json"
        if cached.is_file():
            data = json.loads(cached.read_text(encoding="utf-8"))
            if data.get("version") == CACHE_VERSION:
                return _PAGES.validate_python(data["pages"])
        pages = self.read_words(self.papers.file_path(paper.id), paper.pages)
        try:
            write_atomically(cached, json.dumps(
                {"version": CACHE_VERSION, "pages": _PAGES.dump_python(pages, mode="json")}))
        except StorageError as err:  # served uncached; read again next time
            log.warning("word boxes not cached: %s", err)
        return pages

    def forget(self, paper_id: str) -> None:
        """Drop the cached words of a removed paper."""
        (self.root / f"{paper_id}.json").unlink(missing_ok=True)


