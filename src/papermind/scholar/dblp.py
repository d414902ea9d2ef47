"""DBLP: ``GET /search/publ/api?q=...&format=json`` (dblp.org/faq/How+to+use+the+dblp+search+API)."""

from __future__ import annotations

import html
from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.adapter import JsonSource, Request
from papermind.scholar.source import clean_arxiv, clean_doi


class DblpSource(JsonSource):
    """Computer-science publications by title search (DBLP has no lookup by DOI)."""

    name = "dblp"
    label = "DBLP"
    results_at = ("result", "hits", "hit")
    item_at = ("info",)

    def search_request(self, query: str, k: int) -> Request:
        return "search/publ/api", {"q": query[:300], "format": "json", "h": k}

    def parse(self, item: dict[str, Any]) -> FoundWork:
        return parse_hit(item)


def parse_hit(info: dict[str, Any]) -> FoundWork:
    """A DBLP search hit's ``info`` -> FoundWork (titles end with '.'; authors may be one)."""
    authors = (info.get("authors") or {}).get("author") or []
    if isinstance(authors, dict):
        authors = [authors]
    names = [html.unescape(str(a.get("text", "")) if isinstance(a, dict) else str(a))
             for a in authors]
    ee = str(info["ee"]) if isinstance(info.get("ee"), str) else ""
    venue = info.get("venue")
    year = str(info.get("year") or "")
    return FoundWork(
        source="dblp", id=str(info.get("key", "")), doi=clean_doi(info.get("doi")),
        arxiv=clean_arxiv(ee) if "arxiv.org" in ee else None,
        title=html.unescape(str(info.get("title", ""))).rstrip("."),
        authors=[n.rstrip("0123456789 ").strip() for n in names],  # 'Wei Wang 0001'
        year=int(year) if year.isdigit() else None,
        venue=", ".join(venue) if isinstance(venue, list) else venue,
        kind="preprint" if venue == "CoRR" else info.get("type"), url=info.get("url"))
