"""The library page: papers, search, recent jobs, the library-wide question box and the
export links (one per registered export format)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from papermind.api.deps import ContainerDep, JobsDep
from papermind.services.export_formats import EXPORT_FORMATS
from papermind.services.job_listing import job_details
from papermind.web.pages import render

router = APIRouter(include_in_schema=False)
LIBRARY_PAGE = 200
"""Papers per page of the library table, newest first (the rest: older pages)."""


@router.get("/", response_class=HTMLResponse)
async def library(request: Request, box: ContainerDep, jobs: JobsDep,
                  q: str | None = Query(None, max_length=2000),
                  page: int = Query(1, ge=1)) -> HTMLResponse:
    total = box.library.count()
    pages = max(1, -(-total // LIBRARY_PAGE))
    page = min(page, pages)
    first = (page - 1) * LIBRARY_PAGE
    records = box.library.list(limit=LIBRARY_PAGE, offset=first)
    hits = await run_in_threadpool(box.search.search, q, k=10) if q and q.strip() else []
    titles = {r.id: r.title or r.source_name for r in records}
    titles |= box.library.titles(h.paper_id for h in hits if h.paper_id not in titles)
    recent = jobs.store.recent(8)
    return render(request, "library.html", papers=records, q=q, hits=hits, titles=titles,
                  page=page, pages=pages, total=total, first=first + 1,
                  last=first + len(records), jobs=recent,
                  details=job_details(box.db, recent),
                  export_formats=list(EXPORT_FORMATS.values()))
