"""arXiv: the Atom API ``GET /api/query?id_list=`` / ``?search_query=`` (info.arxiv.org/help/api)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from papermind.domain.scholar import FoundWork
from papermind.scholar.adapter import HttpSource
from papermind.scholar.source import IdKind, arxiv_doi, clean_arxiv, clean_doi, plain_text

_NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
_WORDS = re.compile(r"[^\w\s]+")


class ArxivSource(HttpSource):
    """Preprints by arXiv id and by title words; PDFs at ``{base}/pdf/{id}``."""

    name = "arxiv"
    label = "arXiv"
    kinds = frozenset({"arxiv"})

    def lookup(self, kind: IdKind, value: str) -> FoundWork | None:
        if not self.supports(kind):
            return None
        body = self.http.get("api/query", {"id_list": value, "max_results": 1}, parse=_parse_xml)
        works = parse_feed(body or "")
        return works[0] if works else None

    def search(self, query: str, k: int = 5) -> list[FoundWork]:
        words = " ".join(_WORDS.sub(" ", query).split()[:20])
        body = self.http.get("api/query", {"search_query": f'ti:"{words}"', "max_results": k},
                             parse=_parse_xml)
        return parse_feed(body or "")[:k]

    def pdf_urls(self, work: FoundWork) -> list[str]:
        """Where its PDF may be fetched: the feed's link on this host, then ``/pdf/{id}``."""
        base = f"{self.http.base_url}/pdf/{work.arxiv or work.id}"
        host = self.http.base_url.split("/")[2] if "://" in self.http.base_url else ""
        linked = work.pdf_url or ""
        urls = [linked] if linked and host and f"//{host}/" in linked else []
        return list(dict.fromkeys([*urls, base, *([linked] if linked else [])]))


def parse_feed(body: str) -> list[FoundWork]:
    """The entries of an arXiv Atom feed (an error entry, or an empty one, is no work)."""
    if not body.strip():
        return []
    root = _parse_xml(body)
    works = []
    for entry in root.findall("atom:entry", _NS):
        work = _entry(entry)
        if work is not None:
            works.append(work)
    return works


def _entry(entry: ET.Element) -> FoundWork | None:
    arxiv = clean_arxiv(_text(entry, "atom:id"))
    title = " ".join(_text(entry, "atom:title").split())
    if arxiv is None or not title or title.lower() == "error":
        return None
    published = _text(entry, "atom:published")
    pdf = next((link.get("href") for link in entry.findall("atom:link", _NS)
                if link.get("title") == "pdf" or link.get("type") == "application/pdf"), None)
    return FoundWork(
        source="arxiv", id=arxiv, arxiv=arxiv,
        doi=clean_doi(_text(entry, "arxiv:doi")) or arxiv_doi(arxiv), title=title,
        authors=[" ".join(_text(a, "atom:name").split())
                 for a in entry.findall("atom:author", _NS)],
        year=int(published[:4]) if published[:4].isdigit() else None,
        venue=_text(entry, "arxiv:journal_ref") or "arXiv", kind="preprint",
        abstract=plain_text(_text(entry, "atom:summary")),
        url=f"https://arxiv.org/abs/{arxiv}", pdf_url=pdf)


def _text(node: ET.Element, path: str) -> str:
    found = node.find(path, _NS)
    return (found.text or "").strip() if found is not None else ""


def _parse_xml(body: str) -> ET.Element:
    try:
        return ET.fromstring(body)
    except ET.ParseError as err:
        raise ValueError(f"malformed Atom: {err}") from err
