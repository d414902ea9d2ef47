"""OpenAlex: ``GET /works/doi:{doi}`` and ``GET /works?search=...`` (docs.openalex.org)."""

from __future__ import annotations

from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.adapter import JsonSource, Request
from papermind.scholar.source import IdKind, arxiv_doi, clean_arxiv, clean_doi, doi_path, plain_text


class OpenAlexSource(JsonSource):
    """Works by DOI (arXiv papers by their DataCite DOI) and by search."""

    name = "openalex"
    label = "OpenAlex"
    kinds = frozenset({"doi", "arxiv"})
    work_id = "id"
    results_at = ("results",)

    def lookup_request(self, kind: IdKind, value: str) -> Request:
        doi = value if kind == "doi" else arxiv_doi(value)
        return f"works/doi:{doi_path(doi)}", {}

    def search_request(self, query: str, k: int) -> Request:
        return "works", {"search": _searchable(query), "per_page": k}

    def parse(self, item: dict[str, Any]) -> FoundWork:
        return parse_work(item)


def parse_work(item: dict[str, Any]) -> FoundWork:
    """An OpenAlex Work object -> FoundWork."""
    doi = clean_doi(item.get("doi"))
    locations = [loc for loc in [item.get("primary_location"), item.get("best_oa_location"),
                                 *(item.get("locations") or [])] if isinstance(loc, dict)]
    source = (item.get("primary_location") or {}).get("source") or {}
    return FoundWork(
        source="openalex", id=str(item.get("id", "")).rsplit("/", 1)[-1],
        doi=doi, arxiv=_arxiv_of(doi, locations),
        title=item.get("title") or item.get("display_name") or "",
        authors=[str((a.get("author") or {}).get("display_name") or "")
                 for a in item.get("authorships") or [] if isinstance(a, dict)],
        year=item.get("publication_year"), venue=source.get("display_name"),
        kind=item.get("type"), retracted=bool(item.get("is_retracted")),
        abstract=plain_text(_abstract(item.get("abstract_inverted_index"))),
        url=(item.get("primary_location") or {}).get("landing_page_url") or item.get("doi"),
        pdf_url=next((loc["pdf_url"] for loc in locations if loc.get("pdf_url")),
                     (item.get("open_access") or {}).get("oa_url")))


def _arxiv_of(doi: str | None, locations: list[dict[str, Any]]) -> str | None:
    if doi and doi.startswith("10.48550/arxiv."):
        return doi.removeprefix("10.48550/arxiv.")
    for loc in locations:
        url = loc.get("landing_page_url") or ""
        if "arxiv.org/" in url and (found := clean_arxiv(url)):
            return found
    return None


def _abstract(index: dict[str, list[int]] | None) -> str | None:
    """OpenAlex ships abstracts as an inverted index: word -> positions."""
    if not isinstance(index, dict):
        return None
    words = sorted((pos, word) for word, positions in index.items() for pos in positions)
    return " ".join(word for _, word in words)


def _searchable(query: str) -> str:
    """OpenAlex search treats some characters as syntax: keep words only."""
    return " ".join("".join(c if c.isalnum() else " " for c in query).split())[:300]
