"""Reference checks: every bibliography entry of a paper against the scholarly sources.

``check_references(paper, sources)`` is the plain function other use cases call (the
`papermind check --online` report, the review); ``ReferenceService`` adds what the interfaces
need: a stored paper by id or a file by path, the online switch, the sources' cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from papermind.config import ScholarSettings
from papermind.domain import Paper
from papermind.domain.scholar import ReferencesReport
from papermind.scholar.verify import MAX_REQUESTS, ReferenceChecker
from papermind.services.scholar import build_sources, require_online

if TYPE_CHECKING:
    from papermind.scholar.cache import ScholarCache
    from papermind.scholar.source import ScholarSource
    from papermind.services.library import FileParser, LibraryService


def check_references(paper: Paper, sources: Sequence[ScholarSource], *,
                     paper_id: str | None = None,
                     max_requests: int = MAX_REQUESTS) -> ReferencesReport:
    """Each entry of ``paper.references`` checked; the report names a source that was down."""
    checker = ReferenceChecker(sources, max_requests=max_requests)
    verdicts = checker.check_all(paper.references)
    return ReferencesReport(paper_id=paper_id, title=paper.title, references=verdicts,
                            sources=checker.states())


class ReferenceService:
    """``papermind refs``, ``GET /papers/{id}/references``."""

    def __init__(self, settings: ScholarSettings, cache: ScholarCache, parser: FileParser,
                 library: LibraryService) -> None:
        self.settings = settings
        self.cache = cache
        self.parser = parser
        self.library = library

    def check(self, paper: str, *, online: bool = False,
              files: bool = True) -> ReferencesReport:
        """A stored paper (id or prefix) or, with ``files``, a file (parsed, not stored)."""
        require_online(self.settings, online)
        target, paper_id = self._paper(paper, files=files)
        return self.check_paper(target, online=online, paper_id=paper_id)

    def check_paper(self, paper: Paper, *, online: bool = False,
                    paper_id: str | None = None) -> ReferencesReport:
        """A paper already at hand (e.g. `papermind check`'s), through the library's cache."""
        require_online(self.settings, online)
        sources = build_sources(self.settings, self.cache)
        try:
            return check_references(paper, sources.for_references(), paper_id=paper_id)
        finally:
            sources.close()

    def _paper(self, paper: str, *, files: bool) -> tuple[Paper, str | None]:
        path = Path(paper)
        if files and path.is_file():
            return self.parser.parse(path), None
        stored = self.library.show(paper)
        return stored.paper, stored.record.id
