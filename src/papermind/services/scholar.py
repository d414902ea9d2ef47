"""The scholarly sources, built from ``scholar.*`` settings (only when online).

Offline by default: nothing is built, and nothing sent, unless ``scholar.enabled`` is true or
the command was given ``--online``. Each source gets its own HTTP side (rate limiter,
retries, the response cache in the library database).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papermind import __version__
from papermind.config import ScholarSettings
from papermind.errors import OfflineError
from papermind.scholar.arxiv import ArxivSource
from papermind.scholar.cache import ResponseStore
from papermind.scholar.crossref import CrossrefSource
from papermind.scholar.dblp import DblpSource
from papermind.scholar.http import HttpPolicy, SourceHttp
from papermind.scholar.openalex import OpenAlexSource
from papermind.scholar.semantic_scholar import SemanticScholarSource

if TYPE_CHECKING:
    from papermind.scholar.source import ScholarSource

OFFLINE_HINT = "pass --online, or set scholar.enabled (PAPERMIND_SCHOLAR__ENABLED=true)"


@dataclass
class ScholarSources:
    """The sources of one run, in the order they are asked: OpenAlex, Crossref, Semantic
    Scholar and DBLP (when configured), arXiv."""

    openalex: OpenAlexSource
    crossref: CrossrefSource
    arxiv: ArxivSource
    files: SourceHttp
    """Open-access PDFs, wherever the sources say they are (never cached)."""
    semantic_scholar: SemanticScholarSource | None = None
    dblp: DblpSource | None = None

    def for_references(self) -> list[ScholarSource]:
        """OpenAlex and Crossref hold the published record; Semantic Scholar and DBLP when
        configured."""
        optional = [s for s in (self.semantic_scholar, self.dblp) if s is not None]
        return [self.openalex, self.crossref, *optional]

    def all(self) -> list[ScholarSource]:
        return [*self.for_references(), self.arxiv]

    def close(self) -> None:
        for source in self.all():
            http = getattr(source, "http", None)
            if http is not None:
                http.close()
        self.files.close()


def require_online(settings: ScholarSettings, online: bool) -> None:
    """OfflineError unless the user turned the sources on (setting or ``--online``)."""
    if not (settings.enabled or online):
        raise OfflineError("scholarly sources are off (offline by default): nothing was sent",
                          hint=OFFLINE_HINT)


def require_served_online(settings: ScholarSettings) -> None:
    """For a request to the server (API, web, MCP): OfflineError unless the server's
    operator turned the sources on; a client's ``online=true`` cannot override that."""
    if not settings.enabled:
        raise OfflineError("scholarly sources are off on this server (scholar.enabled is "
                           "false): nothing was sent",
                           hint="ask without online=true, or have the server's operator set "
                                "scholar.enabled (PAPERMIND_SCHOLAR__ENABLED=true)")


def build_sources(settings: ScholarSettings, cache: ResponseStore, *,
                  sleep: Callable[[float], None] = time.sleep) -> ScholarSources:
    """Every configured source, sharing the library's response cache."""
    agent = f"papermind/{__version__}" + (f" (mailto:{settings.mailto})" if settings.mailto else "")
    polite = {"mailto": settings.mailto} if settings.mailto else {}

    def http(name: str, label: str, base: str, params: dict[str, str] | None = None,
             headers: dict[str, str] | None = None) -> SourceHttp:
        policy = HttpPolicy(timeout_s=settings.timeout_s, max_retries=settings.max_retries,
                            backoff_base_s=settings.backoff_base_s, max_wait_s=settings.max_wait_s,
                            min_interval_s=settings.min_interval_s.get(name, 0.0),
                            deadline_s=settings.deadline_s, max_body_mb=settings.max_answer_mb,
                            allow_hosts=tuple(settings.allow_hosts))
        return SourceHttp(name, label, base, cache, policy, params=params or {},
                          headers={"User-Agent": agent, **(headers or {})}, sleep=sleep)

    openalex_params = {**polite, **({"api_key": settings.openalex_key}
                                    if settings.openalex_key else {})}
    s2 = None
    if settings.semantic_scholar_url:
        key = {"x-api-key": settings.semantic_scholar_key} if settings.semantic_scholar_key else {}
        s2 = SemanticScholarSource(http("semantic_scholar", "Semantic Scholar",
                                        settings.semantic_scholar_url, headers=key))
    dblp = DblpSource(http("dblp", "DBLP", settings.dblp_url)) if settings.dblp_url else None
    return ScholarSources(
        openalex=OpenAlexSource(http("openalex", "OpenAlex", settings.openalex_url,
                                     openalex_params)),
        crossref=CrossrefSource(http("crossref", "Crossref", settings.crossref_url, polite)),
        arxiv=ArxivSource(http("arxiv", "arXiv", settings.arxiv_url)),
        files=http("files", "the PDF's server", ""), semantic_scholar=s2, dblp=dblp)
