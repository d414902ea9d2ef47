"""The library page: papers, search, recent jobs and the library-wide question box."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from papermind.api.deps import ContainerDep, JobsDep
from papermind.web.pages import render

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def library(request: Request, box: ContainerDep, jobs: JobsDep,
                  q: str | None = Query(None, max_length=2000)) -> HTMLResponse:
    records = box.library.list(limit=500)
    hits = await run_in_threadpool(box.search.search, q, k=10) if q and q.strip() else []
    return render(request, "library.html", papers=records, q=q, hits=hits,
                  titles={r.id: r.title or r.source_name for r in records},
                  jobs=jobs.store.recent(8))
