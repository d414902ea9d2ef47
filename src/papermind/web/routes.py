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

from papermind.api.deps import ContainerDep, JobsDep, SettingsDep
from papermind.domain.job import JobRequest
from papermind.errors import NotFoundError, PapermindError
from papermind.reports import install, lines_on_page, span_label, span_of
from papermind.services.uploads import read_limited, safe_name, sniff

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
install(templates.env)  # evidence renders the one way (papermind.reports) in every page
PAGE_SCALE = 1.5


def _back(path: str, error: str) -> RedirectResponse:
    return RedirectResponse(f"{path}?error={quote(error[:300])}", status_code=303)


def _page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    values.setdefault("error", request.query_params.get("error"))
    return templates.TemplateResponse(request, name, values, status_code=status)


def mount(app: FastAPI) -> None:
    """Add the web UI's pages and static files to ``app``."""
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def library(request: Request, box: ContainerDep, jobs: JobsDep, q: str | None = Query(None, max_length=2000)) -> HTMLResponse:
        records = box.library.list(limit=500)
        hits = await run_in_threadpool(box.search.search, q, k=10) if q and q.strip() else []
        return _page(request, "library.html", papers=records, q=q, hits=hits,
                     titles={r.id: r.title or r.source_name for r in records},
                     jobs=jobs.store.recent(10))

    @app.post("/ui/upload", include_in_schema=False)
    async def upload(box: ContainerDep, settings: SettingsDep, file: UploadFile) -> Response:
        try:
            data = await read_limited(file, settings.api.max_upload_mb)
            result = await run_in_threadpool(box.library.add_bytes, data,
                                             safe_name(file.filename, sniff(data)))
        except PapermindError as err:
            return _back("/", str(err))
        if result.status == "failed" or not result.paper_id:
            return _back("/", result.reason or "the file could not be read")
        return RedirectResponse(f"/papers/{result.paper_id}", status_code=303)

    @app.get("/papers/{paper_id}", response_class=HTMLResponse, include_in_schema=False)
    def paper(request: Request, box: ContainerDep, paper_id: str) -> HTMLResponse:
        stored = box.library.show(paper_id)
        return _page(request, "paper.html", paper=stored.paper, record=stored.record)

    @app.get("/papers/{paper_id}/pages/{number}", response_class=HTMLResponse,
             include_in_schema=False)
    def page(request: Request, box: ContainerDep, paper_id: str, number: int,
             lines: str | None = Query(None, max_length=20)) -> HTMLResponse:
        stored = box.library.show(paper_id)
        doc = stored.paper
        if not 1 <= number <= len(doc.pages):
            raise NotFoundError(f"page {number} does not exist (the paper has {len(doc.pages)})")
        current = doc.page(number)
        first, last = lines_on_page(lines, number, len(current.lines))
        span = span_of(lines, number) if first else None
        marks = [{"n": ln.n, "x0": ln.box.x0, "y0": ln.box.y0, "x1": ln.box.x1, "y1": ln.box.y1}
                 for ln in current.lines if first <= ln.n <= last and ln.box is not None]
        others = [] if span is None else [p for p in range(span[0], span[2] + 1)
                                          if p != number and 1 <= p <= len(doc.pages)]
        return _page(request, "page.html", paper=doc, page=current, first=first, last=last,
                     highlight=marks, scale=PAGE_SCALE, lines=lines,
                     cited=span_label(span) if span else "", span_pages=others,
                     image=stored.record.source_type == "pdf")

    @app.post("/ui/jobs", include_in_schema=False)
    async def start_job(request: Request, box: ContainerDep, jobs: JobsDep, kind: str = Form(...), paper_id: str | None = Form(None),
                        question: str | None = Form(None), paper_ids: str | None = Form(None),
                        reviewers: str = Form("full"), deep: bool = Form(False)) -> Response:
        try:
            request_ = JobRequest.model_validate({
                "kind": kind, "question": question, "deep": deep, "reviewers": reviewers,
                "paper_id": box.papers.resolve(paper_id) if paper_id else None,
                "paper_ids": [box.papers.resolve(p) for p in (paper_ids or "").split(",") if p]})
            job, _ = jobs.submit(request_)
        except (PapermindError, ValueError) as err:
            back = f"/papers/{paper_id}" if paper_id else "/"
            return _back(back, str(err).splitlines()[0] if str(err) else "invalid request")
        return RedirectResponse(f"/jobs/{job.id}", status_code=303)

    @app.get("/jobs/{job_id}", response_class=HTMLResponse, include_in_schema=False)
    def job(request: Request, jobs: JobsDep, job_id: str) -> HTMLResponse:
        store = jobs.store
        return _page(request, "job.html", job=store.get(job_id), events=store.events(job_id))

    @app.post("/ui/jobs/{job_id}/cancel", include_in_schema=False)
    async def cancel(request: Request, jobs: JobsDep, job_id: str) -> Response:
        try:
            jobs.cancel(job_id)
        except PapermindError as err:
            return _back(f"/jobs/{job_id}", str(err))
        return RedirectResponse(f"/jobs/{job_id}", status_code=303)

    @app.get("/jobs/{job_id}/report", response_class=HTMLResponse, include_in_schema=False)
    def report(request: Request, box: ContainerDep, jobs: JobsDep, job_id: str) -> HTMLResponse:
        found = jobs.store.get(job_id)
        path = box.report_dir(found.id) / "report.html"
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
