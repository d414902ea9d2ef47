"""Deep QA's web strategy: the ``WebSearch`` tool over the scholarly sources.

Offered to the planner only when online (``scholar.enabled`` or ``--online``). Results are
external evidence (title, authors, year, DOI, abstract), shown apart from the paper's own
verified evidence and never called verified; add one to the library with
``papermind add doi:...``.
"""

from __future__ import annotations

import asyncio
import logging

from papermind.config import ScholarSettings
from papermind.domain.scholar import FoundWork
from papermind.errors import SourceDownError
from papermind.scholar.cache import ResponseStore
from papermind.services.scholar import build_sources
from papermind.workflows.deep_qa.context import WebResult

log = logging.getLogger("papermind.scholar")
SNIPPET_CHARS = 600


class ScholarWebSearch:
    """Searches OpenAlex (then Crossref, then Semantic Scholar if one is down)."""

    name = "scholarly search"

    def __init__(self, settings: ScholarSettings, cache: ResponseStore) -> None:
        self.settings = settings
        self.cache = cache

    async def search(self, query: str, k: int) -> list[WebResult]:
        return await asyncio.to_thread(self.search_works, query, k)

    def search_works(self, query: str, k: int) -> list[WebResult]:
        sources = build_sources(self.settings, self.cache)
        try:
            for source in sources.for_references():
                try:
                    return [web_result(w) for w in source.search(query, k)]
                except SourceDownError as err:
                    log.warning("%s; trying the next source", err)
            return []
        finally:
            sources.close()


def web_result(work: FoundWork) -> WebResult:
    """A found work as external evidence: where it is, who wrote it, what it says."""
    authors = ", ".join(work.authors[:3]) + (" et al." if len(work.authors) > 3 else "")
    head = ". ".join(p for p in (authors, work.venue or "",
                                 f"doi:{work.doi}" if work.doi else "") if p)
    snippet = f"{head}. {work.abstract or ''}".strip()
    url = f"https://doi.org/{work.doi}" if work.doi else (work.url or "")
    return WebResult(title=work.title, url=url, snippet=snippet[:SNIPPET_CHARS], year=work.year)
