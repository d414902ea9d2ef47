"""/api/jobs: submit (202), status, result in JSON / Markdown / HTML, events, SSE, cancel,
resume (jobs started from the CLI too: one job store per library)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import FileResponse
from sse_starlette.sse import EventSourceResponse

from papermind.api.deps import ContainerDep, JobsDep
from papermind.api.schemas import JobOut, Submitted
from papermind.domain.job import JobEvent, JobRequest
from papermind.domain.workflows import WORKFLOWS
from papermind.errors import ConflictError, NotFoundError

router = APIRouter(prefix="/api/jobs", tags=["jobs"])

STORE_POLL_S = 0.5
"""How often a stream reads the store for events written by a worker process."""
MEDIA = {"json": "application/json", "md": "text/markdown; charset=utf-8",
         "html": "text/html; charset=utf-8"}


@router.post("", status_code=202, summary=f"Start a job (kind: {', '.join(WORKFLOWS)})")
async def submit(request: JobRequest, jobs: JobsDep, container: ContainerDep,
                 response: Response) -> Submitted:
    if request.paper_id:
        request = request.model_copy(update={"paper_id": container.papers.resolve(request.paper_id)})
    if request.paper_ids:
        ids = [container.papers.resolve(p) for p in request.paper_ids]
        request = request.model_copy(update={"paper_ids": ids})
    job, created = jobs.submit(request)
    response.headers["Location"] = f"/api/jobs/{job.id}"
    return Submitted.model_validate({**JobOut.of(job).model_dump(), "created": created})


@router.get("", summary="Recent jobs")
def list_jobs(jobs: JobsDep, limit: int = Query(50, ge=1, le=500)) -> list[JobOut]:
    return [JobOut.of(j) for j in jobs.store.recent(limit)]


@router.get("/{job_id}", summary="A job's status, error and usage")
def get_job(job_id: str, jobs: JobsDep) -> JobOut:
    return JobOut.of(jobs.store.get(job_id))


@router.get("/{job_id}/result", summary="The report (json, md or html)",
            responses={200: {"content": {m.split(";")[0]: {} for m in MEDIA.values()}}})
def result(job_id: str, jobs: JobsDep, container: ContainerDep,
           format: Literal["json", "md", "html"] = "json") -> FileResponse:
    job = jobs.store.get(job_id)
    if job.status != "completed":
        raise ConflictError(f"job {job_id} is {job.status}; its report is not ready")
    path = container.report_file(job.id, f"report.{format}")
    if not path.is_file():
        raise NotFoundError(f"job {job_id} has no {format} report")
    return FileResponse(path, media_type=MEDIA[format])


@router.get("/{job_id}/events", summary="Progress events so far")
def events(job_id: str, jobs: JobsDep, after: int = Query(0, ge=0, le=2**62)) -> list[JobEvent]:
    jobs.store.get(job_id)
    return list(jobs.store.events(job_id, after))


@router.get("/{job_id}/stream", summary="Server-sent events of node-level progress (a "
            "reconnecting client's Last-Event-ID resumes after that event)")
async def stream(job_id: str, request: Request, jobs: JobsDep) -> EventSourceResponse:
    jobs.store.get(job_id)
    resume = _last_event_id(request.headers.get("last-event-id"))

    async def produce() -> AsyncIterator[dict[str, str]]:
        queue = jobs.subscribe(job_id)
        try:
            last = resume
            for event in jobs.store.events(job_id, resume):
                last = event.seq
                yield {"event": event.kind, "id": str(event.seq),
                       "data": event.model_dump_json()}
            while not jobs.store.get(job_id).finished:
                if await request.is_disconnected():
                    return
                # this process's events wake it at once; a worker's are read from the store
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(queue.get(), timeout=STORE_POLL_S)
                for event in jobs.store.events(job_id, last):
                    last = event.seq
                    yield {"event": event.kind, "id": str(event.seq),
                           "data": event.model_dump_json()}
            for event in jobs.store.events(job_id, last):
                yield {"event": event.kind, "id": str(event.seq), "data": event.model_dump_json()}
            yield {"event": "end", "data": json.dumps({"status": jobs.store.get(job_id).status})}
        finally:
            jobs.unsubscribe(job_id, queue)

    return EventSourceResponse(produce())


def _last_event_id(header: str | None) -> int:
    """The event sequence number a reconnecting client saw last (0: none or unusable)."""
    value = (header or "").strip()
    return int(value) if value.isdigit() and len(value) <= 18 else 0


@router.post("/{job_id}/cancel", summary="Cancel a queued or running job")
async def cancel(job_id: str, jobs: JobsDep) -> JobOut:
    return JobOut.of(jobs.cancel(job_id))


@router.post("/{job_id}/resume", status_code=202,
             summary="Resume a failed or cancelled job from its last finished step")
async def resume(job_id: str, jobs: JobsDep) -> JobOut:
    return JobOut.of(jobs.resume(job_id))
