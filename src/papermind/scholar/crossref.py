"""Crossref: ``GET /works/{doi}`` and ``GET /works?query.bibliographic=...`` (api.crossref.org)."""

from __future__ import annotations

from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.adapter import JsonSource, Request
from papermind.scholar.source import IdKind, clean_doi, doi_path, plain_text

_RETRACTION = ("retraction", "retracted", "removal", "withdrawal")
_NOTICE = ("retraction", "notice of retraction", "withdrawal", "withdrawn", "removal notice",
           "statement of retraction")


class CrossrefSource(JsonSource):
    """Works by DOI and by bibliographic query (a free-text citation is what it is made for)."""

    name = "crossref"
    label = "Crossref"
    kinds = frozenset({"doi"})  # arXiv DOIs are DataCite's, not Crossref's
    work_at = ("message",)
    results_at = ("message", "items")

    def lookup_request(self, kind: IdKind, value: str) -> Request:
        return f"works/{doi_path(value)}", {}

    def search_request(self, query: str, k: int) -> Request:
        return "works", {"query.bibliographic": query[:500], "rows": k}

    def parse(self, item: dict[str, Any]) -> FoundWork:
        return parse_work(item)


def parse_work(item: dict[str, Any]) -> FoundWork:
    """A Crossref work message -> FoundWork (retraction from ``update-to`` / ``updated-by``)."""
    doi = clean_doi(item.get("DOI"))
    title = _first(item.get("title"))
    updates = [u for key in ("update-to", "updated-by") for u in item.get(key) or []
               if isinstance(u, dict) and str(u.get("type", "")).lower().startswith(_RETRACTION)]
    retracts = [d for u in item.get("update-to") or [] if isinstance(u, dict)
                and str(u.get("type", "")).lower().startswith(_RETRACTION)
                and (d := clean_doi(u.get("DOI"))) and d != doi] if _is_notice(title) else []
    return FoundWork(
        source="crossref", id=doi or "", doi=doi, title=title,
        authors=[_name(a) for a in item.get("author") or [] if isinstance(a, dict)],
        year=_year(item), venue=_first(item.get("container-title")) or None,
        kind=item.get("type"),
        retracted=bool(updates and not retracts) or title.lower().startswith("retracted"),
        retracts=retracts, abstract=plain_text(item.get("abstract")), url=item.get("URL"),
        pdf_url=next((link.get("URL") for link in item.get("link") or [] if isinstance(link, dict)
                      and link.get("content-type") == "application/pdf"), None))


def _is_notice(title: str) -> bool:
    """A retraction (or withdrawal) notice, by its title: its ``update-to`` names the work
    it retracts. Any other record carrying a retraction update is the retracted work."""
    return title.lower().lstrip().startswith(_NOTICE)


def _first(value: Any) -> str:
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return str(value or "")


def _name(author: dict[str, Any]) -> str:
    return " ".join(p for p in (author.get("given"), author.get("family")) if p) \
        or str(author.get("name") or "")


def _year(item: dict[str, Any]) -> int | None:
    for key in ("issued", "published-print", "published-online", "published", "created"):
        parts = (item.get(key) or {}).get("date-parts") or []
        if parts and parts[0] and parts[0][0]:
            try:
                return int(parts[0][0])
            except (TypeError, ValueError):
                continue
    return None
