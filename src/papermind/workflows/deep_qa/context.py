"""Deep QA runtime context: collaborators and limits, given by the service per run."""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from papermind.domain.chunk import SearchHit
from papermind.llm import Gateway
from papermind.workflows.ports import Grounder, PaperSource, Retriever


@dataclass(frozen=True)
class Reranked:
    """A reranker's answer with how it ordered the hits (e.g. why it kept the search order)."""

    hits: list[SearchHit]
    how: str = "reranker"


class Reranker(Protocol):
    """Reorders candidates for a query (the search component's reranker, adapted)."""

    def rerank(self, query: str, hits: Sequence[SearchHit],
               k: int) -> list[SearchHit] | Reranked | Awaitable[list[SearchHit] | Reranked]:
        ...


@dataclass(frozen=True)
class WebResult:
    """One external (web / scholarly) search result: never grounded in a stored paper."""

    title: str
    url: str
    snippet: str
    year: int | None = None


class WebSearch(Protocol):
    """A web or scholarly search tool; absent offline."""

    name: str

    async def search(self, query: str, k: int) -> list[WebResult]:
        ...


@dataclass(frozen=True)
class CatalogEntry:
    """A paper the planner may name for a one-paper search."""

    paper_id: str
    title: str
    year: int | None = None
    source_name: str = ""

    def label(self) -> str:
        name = self.title or self.source_name or "untitled"
        return f"[{self.paper_id[:8]}] {name[:70]}{f' ({self.year})' if self.year else ''}"


@dataclass
class QAContext:
    """What the deep QA nodes use; ``paper_ids`` in the state narrows the search scope."""

    gateway: Gateway
    retriever: Retriever
    papers: PaperSource
    grounder: Grounder
    reranker: Reranker | None = None
    web_search: WebSearch | None = None
    max_steps: int = 12
    max_retrievals_per_task: int = 3
    max_replans: int = 1
    token_budget: int | None = None
    budget_reserve: float = 0.25
    search_k: int = 8
    keep: int = 4
    newest_year: int | None = None
    passage_chars: int = 700
    catalog: list[CatalogEntry] = field(default_factory=list)
    """Papers listed to the planner (the scope, or a small library); empty = none listed."""
