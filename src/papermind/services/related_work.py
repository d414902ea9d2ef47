"""Related work for the contribution reviewer (online only): several searches, one list.

Queries come from the paper's title, its abstract and its claim sentences ("we propose...");
each is searched in OpenAlex (Crossref when it is down). Results are deduplicated (DOI, else
title), the paper itself dropped, and ranked by how many queries found them, then by their
best rank.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papermind.config import ScholarSettings
from papermind.domain import Paper
from papermind.domain.scholar import FoundWork
from papermind.errors import SourceDownError
from papermind.i18n.query_terms import STOP_WORDS
from papermind.scholar.cache import ResponseStore
from papermind.scholar.matching import fold
from papermind.services.scholar import build_sources

if TYPE_CHECKING:
    from papermind.scholar.source import ScholarSource

log = logging.getLogger("papermind.scholar")
_CLAIM = re.compile(r"[^.]*\b(?:we|this paper|this work)\s+(?:propose|introduce|present|show|"
                    r"develop|design)\b[^.]*\.", re.IGNORECASE)
_STOP = STOP_WORDS | {"introduce", "new", "novel"}


@dataclass
class ScholarRelatedWork:
    """``RelatedWorkFinder`` over the scholarly sources."""

    settings: ScholarSettings
    cache: ResponseStore
    per_query: int = 5
    limit: int = 8
    max_queries: int = 4

    async def find(self, paper: Paper) -> list[FoundWork]:
        return await asyncio.to_thread(self.find_sync, paper)

    def find_sync(self, paper: Paper) -> list[FoundWork]:
        sources = build_sources(self.settings, self.cache)
        hits: dict[str, tuple[FoundWork, int, int]] = {}  # key -> (work, queries, best rank)
        own = fold(paper.title)
        try:
            for query in queries(paper)[: self.max_queries]:
                for rank, work in enumerate(self._search(sources.for_references(), query)):
                    key = work.doi or fold(work.title)
                    if not key or (own and fold(work.title) == own):
                        continue
                    seen = hits.get(key)
                    hits[key] = (work, 1, rank) if seen is None else \
                        (seen[0], seen[1] + 1, min(seen[2], rank))
        finally:
            sources.close()
        ranked = sorted(hits.values(), key=lambda h: (-h[1], h[2]))
        return [work for work, _, _ in ranked[: self.limit]]

    def _search(self, sources: Sequence[ScholarSource], query: str) -> list[FoundWork]:
        for source in sources:
            try:
                return list(source.search(query, self.per_query))
            except SourceDownError as err:
                log.warning("%s; trying the next source", err)
        return []


def queries(paper: Paper) -> list[str]:
    """Title, the abstract's key words, then each claim sentence's key words."""
    out = [paper.title] if paper.title.strip() else []
    if paper.abstract:
        out.append(_key_words(paper.abstract, 14))
    text = " ".join(ln.text for page in paper.pages[:3] for ln in page.lines)
    out += [_key_words(m.group(0), 12) for m in _CLAIM.finditer(paper.abstract or text)]
    return list(dict.fromkeys(q for q in out if len(q.split()) >= 3))


def _key_words(text: str, n: int) -> str:
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9-]+", text) if w.lower() not in _STOP]
    return " ".join(list(dict.fromkeys(words))[:n])
