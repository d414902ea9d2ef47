"""DBLP: ``GET /search/publ/api?q=...&format=json`` (dblp.org/faq/How+to+use+the+dblp+search+API)."""

from __future__ import annotations

import html
from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.http import SourceHttp
from papermind.scholar.source import IdKind, clean_arxiv, clean_doi


class DblpSource:
    """Computer-science publications by title search (DBLP has no lookup by DOI)."""

    name = "dblp"
    label = "DBLP"

    def __init__(self, http: SourceHttp) -> None:
        self.http = http

    def supports(self, kind: IdKind) -> bool:
        return False

    def lookup(self, kind: IdKind, value: str) -> FoundWork | None:
        return None

    def search(self, query: str, k: int = 5) -> list[FoundWork]:
        data = self.http.get_json("search/publ/api", {"q": query[:300], "format": "json",
                                                      "h": k})
        hits = (((data or {}).get("result") or {}).get("hits") or {}).get("hit") or [] \
            if isinstance(data, dict) else []
        return [parse_hit(hit["info"]) for hit in hits[:k]
                if isinstance(hit, dict) and isinstance(hit.get("info"), dict)]

    @property
    def sent(self) -> int:
        return self.http.sent

    @property
    def cached(self) -> int:
        return self.http.cached

    @property
    def down(self) -> str | None:
        return self.http.down


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
