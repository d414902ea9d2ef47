"""Semantic Scholar Graph API: ``GET /paper/{DOI:..|arXiv:..}`` and ``GET /paper/search``."""

from __future__ import annotations

from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.adapter import JsonSource, Request
from papermind.scholar.source import IdKind, clean_arxiv, clean_doi, doi_path, plain_text

FIELDS = "title,authors,year,venue,externalIds,abstract,openAccessPdf,publicationTypes,url"


class SemanticScholarSource(JsonSource):
    """Papers by DOI or arXiv id and by keyword search (a key raises its rate limit)."""

    name = "semantic_scholar"
    label = "Semantic Scholar"
    kinds = frozenset({"doi", "arxiv"})
    work_id = "paperId"
    results_at = ("data",)

    def lookup_request(self, kind: IdKind, value: str) -> Request:
        prefix = "DOI" if kind == "doi" else "arXiv"
        return f"paper/{prefix}:{doi_path(value)}", {"fields": FIELDS}

    def search_request(self, query: str, k: int) -> Request:
        return "paper/search", {"query": query[:300], "limit": k, "fields": FIELDS}

    def parse(self, item: dict[str, Any]) -> FoundWork:
        return parse_paper(item)


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
