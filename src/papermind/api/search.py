"""/api/search: hybrid search over the library or some papers."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Response
from starlette.concurrency import run_in_threadpool

from papermind.api.deps import ContainerDep
from papermind.domain import SearchHit
from papermind.services.search import Reranking

router = APIRouter(prefix="/api", tags=["search"])


@router.get("/search", summary="Search passages; each hit has page and lines")
async def search(container: ContainerDep, response: Response,
                 q: str = Query(..., min_length=1, max_length=2000),
                 paper: list[str] | None = Query(None), k: int = Query(10, ge=1, le=100),
                 mode: Literal["bm25", "dense", "hybrid"] = "hybrid",
                 tag: list[str] | None = Query(None, description="only papers with every tag"),
                 collection: list[str] | None = Query(
                     None, description="only papers in every collection (or below)"),
                 ) -> list[SearchHit]:
    """Hits, best first; when the LLM reranker was asked, ``X-Papermind-Rerank-*`` headers
    say its model, tokens, cost, whether it was cached, and any warning (fusion order kept)."""
    def run() -> Reranking:
        ids = container.catalog.select(papers=paper or (), tags=tag or (),
                                       collections=collection or ())
        return container.search.search_reranked(q, paper_ids=ids, mode=mode, k=k)

    found = await run_in_threadpool(run)
    if found.model:
        for name, value in found.summary().items():
            text = " ".join(str(value).split()).encode("ascii", "replace").decode()
            response.headers[f"X-Papermind-Rerank-{name.replace('_', '-')}"] = text[:300]
    return list(found.hits)
