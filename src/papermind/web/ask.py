"""Asking the library (or one paper) in the browser: a conversation of question jobs.

Each turn is a question job with its own report; a follow-up names the turn it follows
(``follows``), so the earlier turns are the next question's context (services.threads).
"""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from papermind.api.deps import ContainerDep, JobsDep
from papermind.domain.job import Job, JobRequest
from papermind.errors import NotFoundError, PapermindError
from papermind.services.container import Container
from papermind.services.report_view import ReportView, load_report
from papermind.services.threads import check_follow_up, thread_of
from papermind.web.jobs import titles_for
from papermind.web.pages import back, render

router = APIRouter(include_in_schema=False)


@router.post("/ui/ask")
async def ask(box: ContainerDep, jobs: JobsDep, question: str = Form(""),
              deep: bool = Form(False), paper_ids: str = Form(""),
              follows: str | None = Form(None)) -> Response:
    ids = [p for p in paper_ids.split(",") if p]
    where = f"/ask/{follows}" if follows else (f"/papers/{ids[0]}" if len(ids) == 1 else "/")
    try:
        if follows:
            previous = check_follow_up(jobs.store, follows)
            ids = ids or previous.request.paper_ids
        request = JobRequest.model_validate({
            "kind": "question", "question": question, "deep": deep, "follows": follows,
            "paper_ids": [box.papers.resolve(p) for p in ids]})
        job, _ = jobs.submit(request)
    except (PapermindError, ValueError) as err:
        message = str(err).splitlines()[0] if str(err) else "invalid question"
        return back(where, message.removeprefix("1 validation error for JobRequest"))
    return RedirectResponse(f"/ask/{job.id}#turn-{job.id}", status_code=303)


def _report(box: Container, job: Job) -> ReportView | None:
    """The turn's report, or None while it has none (running, failed, or never written)."""
    if job.status != "completed":
        return None
    try:
        return load_report(box, job)
    except NotFoundError:
        return None


@router.get("/ask/{job_id}", response_class=HTMLResponse)
def thread(request: Request, job_id: str, box: ContainerDep, jobs: JobsDep) -> HTMLResponse:
    chain = thread_of(jobs.store, job_id)
    if chain[-1].request.kind != "question":
        raise NotFoundError("that job is not a question")
    turns = []
    for job in chain:
        view = _report(box, job)
        events = [] if view else jobs.store.events(job.id)
        turns.append({"job": job, "report": view, "events": events})
    last = chain[-1]
    return render(request, "thread.html", turns=turns, last=last,
                  titles=titles_for(box, *chain), scope=last.request.paper_ids)
