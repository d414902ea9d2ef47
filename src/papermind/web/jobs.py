"""Jobs in the browser: start one from a form, watch its stages live, cancel, read the report."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from papermind.api.deps import ContainerDep, JobsDep
from papermind.domain.job import Job, JobRequest
from papermind.errors import PapermindError
from papermind.services.container import Container
from papermind.services.job_listing import job_details
from papermind.services.report_view import load_report, recommendation
from papermind.web.pages import back, render

router = APIRouter(include_in_schema=False)


def titles_for(box: Container, *jobs: Job) -> dict[str, str]:
    """Paper id -> title for the papers these jobs are about (ids stay on hover)."""
    ids = {p for job in jobs for p in [job.request.paper_id, *job.request.paper_ids] if p}
    return box.library.titles(sorted(ids))


@router.post("/ui/jobs")
async def start_job(request: Request, box: ContainerDep, jobs: JobsDep, kind: str = Form(...),
                    paper_id: str | None = Form(None), question: str | None = Form(None),
                    paper_ids: str | None = Form(None), reviewers: str = Form("full"),
                    deep: bool = Form(False)) -> Response:
    try:
        request_ = JobRequest.model_validate({
            "kind": kind, "question": question, "deep": deep, "reviewers": reviewers,
            "paper_id": box.papers.resolve(paper_id) if paper_id else None,
            "paper_ids": [box.papers.resolve(p) for p in (paper_ids or "").split(",") if p]})
        job, _ = jobs.submit(request_)
    except (PapermindError, ValueError) as err:
        where = f"/papers/{paper_id}" if paper_id else "/"
        return back(where, str(err).splitlines()[0] if str(err) else "invalid request")
    return RedirectResponse(f"/jobs/{job.id}", status_code=303)


@router.get("/jobs", response_class=HTMLResponse)
def job_list(request: Request, box: ContainerDep, jobs: JobsDep) -> HTMLResponse:
    recent = jobs.store.recent(100)
    return render(request, "jobs.html", jobs=recent, titles=titles_for(box, *recent),
                  details=job_details(box.db, recent))


@router.get("/jobs/{job_id}", response_class=HTMLResponse)
def job(request: Request, job_id: str, box: ContainerDep, jobs: JobsDep) -> HTMLResponse:
    found = jobs.store.get(job_id)
    return render(request, "job.html", job=found, events=jobs.store.events(found.id),
                  titles=titles_for(box, found), recommendation=recommendation(box, found))


@router.post("/ui/jobs/{job_id}/cancel")
async def cancel(job_id: str, jobs: JobsDep) -> Response:
    return _act(job_id, jobs.cancel)


@router.post("/ui/jobs/{job_id}/resume")
async def resume(job_id: str, jobs: JobsDep) -> Response:
    return _act(job_id, jobs.resume)


def _act(job_id: str, action: Callable[[str], object]) -> Response:
    """Cancel or resume, then back to the job's page (with the error, if any)."""
    try:
        action(job_id)
    except PapermindError as err:
        return back(f"/jobs/{job_id}", str(err))
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)


@router.get("/jobs/{job_id}/report", response_class=HTMLResponse)
def report(request: Request, job_id: str, box: ContainerDep, jobs: JobsDep) -> HTMLResponse:
    found = jobs.store.get(job_id)
    view = load_report(box, found)
    return render(request, "report.html", job=found, report=view, titles=titles_for(box, found))
