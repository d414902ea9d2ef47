"""/api/search: hybrid search over the library or some papers."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from papermind.api.deps import ContainerDep
from papermind.domain import SearchHit

router = APIRouter(prefix="/api", tags=["search"])


@router.get("/search", summary="Search passages; each hit has page and lines")
async def search(container: ContainerDep, q: str = Query(..., min_length=1, max_length=2000),
                 paper: list[str] | None = Query(None), k: int = Query(10, ge=1, le=100),
                 mode: Literal["bm25", "dense", "hybrid"] = "hybrid",
                 tag: list[str] | None = Query(None, description="only papers with every tag"),
                 collection: list[str] | None = Query(
                     None, description="only papers in every collection (or below)"),
                 ) -> list[SearchHit]:
    def run() -> list[Any]:
        ids = container.catalog.select(papers=paper or (), tags=tag or (),
                                       collections=collection or ())
        return container.search.search(q, paper_ids=ids, mode=mode, k=k)

    return list(await run_in_threadpool(run))
