"""HTML pages over the same services as the API; forms post back and redirect."""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from papermind.domain.job import JobRequest
from papermind.errors import NotFoundError, PapermindError
from papermind.reports import install
from papermind.services.container import Container
from papermind.services.job_runners import report_dir
from papermind.services.jobs import JobService
from papermind.services.uploads import read_limited, safe_name, sniff

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
install(templates.env)  # evidence renders the one way (papermind.reports) in every page


def _box(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


def _jobs(request: Request) -> JobService:
    jobs: JobService = request.app.state.jobs
    return jobs


def _back(path: str, error: str) -> RedirectResponse:
    return RedirectResponse(f"{path}?error={quote(error[:300])}", status_code=303)


def _page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    values.setdefault("error", request.query_params.get("error"))
    return templates.TemplateResponse(request, name, values, status_code=status)


def mount(app: FastAPI) -> None:
    """Add the web UI's pages and static files to ``app``."""
    from papermind.web import reader  # the reader's pages (papermind.web.reader)

    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(reader.router)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def library(request: Request, q: str | None = Query(None, max_length=2000)) -> HTMLResponse:
        box = _box(request)
        records = box.library.list(limit=500)
        hits = await run_in_threadpool(box.search.search, q, k=10) if q and q.strip() else []
        return _page(request, "library.html", papers=records, q=q, hits=hits,
                     titles={r.id: r.title or r.source_name for r in records},
                     jobs=_jobs(request).store.recent(10))

    @app.post("/ui/upload", include_in_schema=False)
    async def upload(request: Request, file: UploadFile) -> Response:
        settings = request.app.state.settings
        try:
            data = await read_limited(file, settings.api.max_upload_mb)
            result = await run_in_threadpool(_box(request).library.add_bytes, data,
                                             safe_name(file.filename, sniff(data)))
        except PapermindError as err:
            return _back("/", str(err))
        if result.status == "failed" or not result.paper_id:
            return _back("/", result.reason or "the file could not be read")
        return RedirectResponse(f"/papers/{result.paper_id}", status_code=303)

    @app.get("/papers/{paper_id}", response_class=HTMLResponse, include_in_schema=False)
    def paper(request: Request, paper_id: str) -> HTMLResponse:
        stored = _box(request).library.show(paper_id)
        return _page(request, "paper.html", paper=stored.paper, record=stored.record)

    @app.post("/ui/jobs", include_in_schema=False)
    async def start_job(request: Request, kind: str = Form(...), paper_id: str | None = Form(None),
                        question: str | None = Form(None), paper_ids: str | None = Form(None),
                        reviewers: str = Form("full"), deep: bool = Form(False)) -> Response:
        box = _box(request)
        try:
            request_ = JobRequest.model_validate({
                "kind": kind, "question": question, "deep": deep, "reviewers": reviewers,
                "paper_id": box.papers.resolve(paper_id) if paper_id else None,
                "paper_ids": [box.papers.resolve(p) for p in (paper_ids or "").split(",") if p]})
            job, _ = _jobs(request).submit(request_)
        except (PapermindError, ValueError) as err:
            back = f"/papers/{paper_id}" if paper_id else "/"
            return _back(back, str(err).splitlines()[0] if str(err) else "invalid request")
        return RedirectResponse(f"/jobs/{job.id}", status_code=303)

    @app.get("/jobs/{job_id}", response_class=HTMLResponse, include_in_schema=False)
    def job(request: Request, job_id: str) -> HTMLResponse:
        store = _jobs(request).store
        return _page(request, "job.html", job=store.get(job_id), events=store.events(job_id))

    @app.post("/ui/jobs/{job_id}/cancel", include_in_schema=False)
    async def cancel(request: Request, job_id: str) -> Response:
        try:
            _jobs(request).cancel(job_id)
        except PapermindError as err:
            return _back(f"/jobs/{job_id}", str(err))
        return RedirectResponse(f"/jobs/{job_id}", status_code=303)

    @app.get("/jobs/{job_id}/report", response_class=HTMLResponse, include_in_schema=False)
    def report(request: Request, job_id: str) -> HTMLResponse:
        found = _jobs(request).store.get(job_id)
        path = report_dir(_box(request), found.id) / "report.html"
        if found.status != "completed" or not path.is_file():
            raise NotFoundError(f"job {job_id} has no report yet ({found.status})")
        html = path.read_text(encoding="utf-8")
        extra = ('<link rel="stylesheet" href="/static/app.css">'
                 f'<p><a href="/jobs/{found.id}">back to the job</a></p>'
                 '<script src="/static/app.js"></script>')
        html = html.replace("</body>", extra + "</body>") if "</body>" in html else html + extra
        return HTMLResponse(html)

    @app.get("/login", response_class=HTMLResponse, include_in_schema=False)
    def login_form(request: Request) -> HTMLResponse:
        return _page(request, "login.html")

    @app.post("/login", include_in_schema=False)
    def login(request: Request, token: str = Form(..., max_length=1000)) -> Response:
        expected = request.app.state.settings.api.token
        if not expected:
            return RedirectResponse("/", status_code=303)  # no token needed here
        if not hmac.compare_digest(token.encode(), expected.encode()):
            return _page(request, "login.html", status=401, error="wrong token")
        response = RedirectResponse("/", status_code=303)
        response.set_cookie("papermind_token", token, httponly=True, samesite="strict")
        return response
