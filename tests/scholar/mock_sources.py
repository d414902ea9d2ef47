"""Local mock servers for OpenAlex, Crossref and arXiv, speaking their documented formats.

Each serves a shared list of ``Work`` records over HTTP on 127.0.0.1 (a background thread),
records every request, and can be told to misbehave for the next requests (``fail_next``):
429 with Retry-After, 500, a hang (timeout), a malformed body. ``stop()`` takes a server
down (connections refused) to play a source that is out.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from xml.sax.saxutils import escape

PDF_BYTES = b"%PDF-1.4\n% mock\n"


@dataclass
class Work:
    """One work in the mock record."""

    title: str
    authors: list[str]
    year: int
    venue: str = ""
    doi: str | None = None
    arxiv: str | None = None
    retracted: bool = False
    kind: str = "journal-article"
    abstract: str = ""
    oa_pdf: bool = False


@dataclass
class Fault:
    kind: str  # "429", "500", "hang", "malformed"
    retry_after: str | None = None
    path: str = "/"
    """only requests whose path starts with this get the fault"""


@dataclass
class MockSource:
    """A base mock: subclasses answer ``route(path, query)`` with (status, body, headers)."""

    works: list[Work]
    hang_s: float = 3.0
    requests: list[str] = field(default_factory=list)
    faults: deque[Fault] = field(default_factory=deque)
    pdf: bytes = PDF_BYTES

    def __post_init__(self) -> None:
        mock = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                mock.requests.append(self.path)
                status, body, headers = mock.answer(self.path)
                if status == 0:
                    return
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def fail_next(self, *faults: Fault) -> None:
        self.faults.extend(faults)

    def answer(self, raw: str) -> tuple[int, bytes, dict[str, str]]:
        fault = next((f for f in self.faults if raw.startswith(f.path)), None)
        if fault is not None:
            self.faults.remove(fault)
            if fault.kind == "hang":
                time.sleep(self.hang_s)
                return 0, b"", {}
            if fault.kind == "429":
                return 429, b'{"error": "too many requests"}', {
                    "Retry-After": fault.retry_after or "1", "Content-Type": "application/json"}
            if fault.kind == "500":
                return 500, b"Internal Server Error", {"Content-Type": "text/plain"}
            if fault.kind == "malformed":
                return 200, b'{"results": [{"id": ', {"Content-Type": "application/json"}
        parts = urlsplit(raw)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        return self.route(unquote(parts.path), query)

    def route(self, path: str, query: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        raise NotImplementedError

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def find(self, text: str, k: int, works: list[Work] | None = None) -> list[Work]:
        """Works ranked by shared title words (a crude stand-in for the sources' search)."""
        words = set(_words(text))
        scored = [(len(words & set(_words(w.title))) / max(len(set(_words(w.title))), 1), i, w)
                  for i, w in enumerate(self.works if works is None else works)]
        return [w for score, _, w in sorted(scored, key=lambda s: (-s[0], s[1])) if score >= 0.5][:k]

    def by_doi(self, doi: str) -> Work | None:
        return next((w for w in self.works if w.doi and w.doi.lower() == doi.lower()), None)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _json(status: int, payload: Any, headers: dict[str, str] | None = None,
          ) -> tuple[int, bytes, dict[str, str]]:
    return status, json.dumps(payload).encode(), {"Content-Type": "application/json",
                                                  **(headers or {})}


class MockOpenAlex(MockSource):
    """``/works/doi:{doi}`` and ``/works?search=``."""

    def route(self, path: str, query: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        if path.startswith("/works/doi:"):
            doi = path.removeprefix("/works/doi:")
            work = self.by_doi(doi) or next(
                (w for w in self.works if w.arxiv and doi.lower() == f"10.48550/arxiv.{w.arxiv}"),
                None)
            return _json(200, self.render(work)) if work else _json(404, {"error": "NotFound"})
        if path.startswith("/files/"):
            return 200, self.pdf, {"Content-Type": "application/pdf"}
        if path == "/works":
            found = self.find(query.get("search", ""), int(query.get("per_page", "25")))
            return _json(200, {"meta": {"count": len(found)},
                               "results": [self.render(w) for w in found]})
        return _json(404, {"error": "NotFound"})

    def render(self, work: Work) -> dict[str, Any]:
        index = self.works.index(work)
        doi = work.doi or (f"10.48550/arxiv.{work.arxiv}" if work.arxiv else None)
        pdf = f"{self.base_url}/files/{index}.pdf" if work.oa_pdf else None
        words = work.abstract.split()
        return {
            "id": f"https://openalex.org/W{1000 + index}", "doi": f"https://doi.org/{doi}" if doi else None,
            "title": work.title, "display_name": work.title, "publication_year": work.year,
            "type": work.kind, "is_retracted": work.retracted,
            "authorships": [{"author": {"display_name": a}} for a in work.authors],
            "primary_location": {"source": {"display_name": work.venue} if work.venue else None,
                                 "landing_page_url": f"https://doi.org/{doi}", "pdf_url": pdf},
            "open_access": {"is_oa": bool(pdf), "oa_url": pdf},
            "abstract_inverted_index": {w: [i for i, x in enumerate(words) if x == w]
                                        for w in set(words)} or None,
        }


class MockCrossref(MockSource):
    """``/works/{doi}`` and ``/works?query.bibliographic=``; retractions as ``update-to``."""

    def route(self, path: str, query: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        limits = {"x-rate-limit-limit": "50", "x-rate-limit-interval": "1s"}
        crossref = [w for w in self.works if w.doi and not w.doi.startswith("10.48550/")]
        if path.startswith("/works/"):
            doi = path.removeprefix("/works/")
            work = next((w for w in crossref if w.doi and w.doi.lower() == doi.lower()), None)
            if work is None:
                return 404, b"Resource not found.", {"Content-Type": "text/plain", **limits}
            return _json(200, {"status": "ok", "message-type": "work",
                               "message": self.render(work)}, limits)
        if path == "/works":
            found = self.find(query.get("query.bibliographic", ""), int(query.get("rows", "20")),
                              crossref)
            return _json(200, {"status": "ok", "message-type": "work-list",
                               "message": {"total-results": len(found),
                                           "items": [self.render(w) for w in found]}}, limits)
        return 404, b"Resource not found.", {"Content-Type": "text/plain"}

    @staticmethod
    def render(work: Work) -> dict[str, Any]:
        item: dict[str, Any] = {
            "DOI": work.doi, "title": [work.title], "type": work.kind,
            "author": [{"given": " ".join(a.split()[:-1]), "family": a.split()[-1]}
                       for a in work.authors],
            "issued": {"date-parts": [[work.year]]},
            "container-title": [work.venue] if work.venue else [],
            "URL": f"https://doi.org/{work.doi}",
        }
        if work.retracted:
            item["updated-by"] = [{"DOI": f"{work.doi}.retraction", "type": "retraction",
                                   "label": "Retraction"}]
        return item


class MockArxiv(MockSource):
    """``/api/query?id_list=`` / ``search_query=`` (Atom) and ``/pdf/{id}``."""

    def route(self, path: str, query: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        atom = {"Content-Type": "application/atom+xml; charset=utf-8"}
        if path == "/api/query":
            ids = [i for i in query.get("id_list", "").split(",") if i]
            if ids:
                found = [w for w in self.works if w.arxiv in ids]
                if not found and any(not re.fullmatch(r"\d{4}\.\d{4,5}(v\d+)?", i) for i in ids):
                    return 400, self.feed([], error=f"incorrect id format for {ids[0]}"), atom
            else:
                found = self.find(query.get("search_query", "").replace("ti:", ""),
                                  int(query.get("max_results", "10")))
            return 200, self.feed(found), atom
        match = re.fullmatch(r"/pdf/(.+?)(v\d+)?(\.pdf)?", path)
        if match and any(w.arxiv == match.group(1) for w in self.works):
            return 200, self.pdf, {"Content-Type": "application/pdf"}
        return 404, b"not found", {"Content-Type": "text/plain"}

    def feed(self, works: list[Work], error: str | None = None) -> bytes:
        entries = []
        for w in works:
            authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in w.authors)
            entries.append(
                f"<entry><id>http://arxiv.org/abs/{w.arxiv}v1</id>"
                f"<published>{w.year}-01-15T00:00:00Z</published><title>{escape(w.title)}</title>"
                f"<summary>{escape(w.abstract)}</summary>{authors}"
                f'<link href="http://arxiv.org/abs/{w.arxiv}v1" rel="alternate" type="text/html"/>'
                f'<link title="pdf" href="{self.base_url}/pdf/{w.arxiv}v1" rel="related" '
                f'type="application/pdf"/></entry>')
        if error:
            entries.append(f"<entry><id>http://arxiv.org/api/errors</id><title>Error</title>"
                           f"<summary>{escape(error)}</summary></entry>")
        return ('<?xml version="1.0" encoding="UTF-8"?>'
                '<feed xmlns="http://www.w3.org/2005/Atom" '
                'xmlns:arxiv="http://arxiv.org/schemas/atom">'
                f"<title>arXiv Query</title>{''.join(entries)}</feed>").encode()


class MockDblp(MockSource):
    """``/search/publ/api?q=&format=json&h=``."""

    def route(self, path: str, query: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        if path != "/search/publ/api":
            return 404, b"not found", {"Content-Type": "text/plain"}
        found = self.find(query.get("q", ""), int(query.get("h", "30")))
        hits = [{"info": {"key": f"conf/x/{i}", "title": f"{w.title}.", "venue": w.venue or "CoRR",
                          "year": str(w.year), "doi": w.doi,
                          "authors": {"author": [{"text": a} for a in w.authors]}}}
                for i, w in enumerate(found)]
        return _json(200, {"result": {"hits": {"@total": str(len(hits)), "hit": hits}}})
