"""Semantic Scholar Graph API: ``GET /paper/{DOI:..|arXiv:..}`` and ``GET /paper/search``."""

from __future__ import annotations

from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.http import SourceHttp
from papermind.scholar.source import IdKind, clean_arxiv, clean_doi, doi_path, plain_text

FIELDS = "title,authors,year,venue,externalIds,abstract,openAccessPdf,publicationTypes,url"


class SemanticScholarSource:
    """Papers by DOI or arXiv id and by keyword search (a key raises its rate limit)."""

    name = "semantic_scholar"
    label = "Semantic Scholar"

    def __init__(self, http: SourceHttp) -> None:
        self.http = http

    def supports(self, kind: IdKind) -> bool:
        return kind in ("doi", "arxiv")

    def lookup(self, kind: IdKind, value: str) -> FoundWork | None:
        prefix = "DOI" if kind == "doi" else "arXiv"
        data = self.http.get_json(f"paper/{prefix}:{doi_path(value)}", {"fields": FIELDS})
        return parse_paper(data) if isinstance(data, dict) and data.get("paperId") else None

    def search(self, query: str, k: int = 5) -> list[FoundWork]:
        data = self.http.get_json("paper/search", {"query": query[:300], "limit": k,
                                                   "fields": FIELDS})
        items = data.get("data", []) if isinstance(data, dict) else []
        return [parse_paper(item) for item in items[:k] if isinstance(item, dict)]

    @property
    def sent(self) -> int:
        return self.http.sent

    @property
    def cached(self) -> int:
        return self.http.cached

    @property
    def down(self) -> str | None:
        return self.http.down


def parse_paper(item: dict[str, Any]) -> FoundWork:
    ids = item.get("externalIds") or {}
    types = [str(t).lower() for t in item.get("publicationTypes") or []]
    return FoundWork(
        source="semantic_scholar", id=str(item.get("paperId", "")),
        doi=clean_doi(ids.get("DOI")), arxiv=clean_arxiv(ids.get("ArXiv")),
        title=item.get("title") or "",
        authors=[str(a.get("name") or "") for a in item.get("authors") or [] if isinstance(a, dict)],
        year=item.get("year"), venue=item.get("venue") or None,
        kind=types[0] if types else None, abstract=plain_text(item.get("abstract")),
        url=item.get("url"), pdf_url=(item.get("openAccessPdf") or {}).get("url"))
