"""Runs started outside the job service (the CLI's `read`, `review`, `ask`) kept as jobs in
the library's one job store: the server's /api/jobs and the web's Jobs page list them,
their events are the same as a server job's, their reports sit in the job's folder (the
reader opens them), and either side resumes one that stopped."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from papermind.domain.job import Job, JobRequest
from papermind.errors import ConflictError, InputError, PapermindError
from papermind.services.job_store import JobRecords
from papermind.services.language import output_language
from papermind.workflows.ports import ProgressCallback

if TYPE_CHECKING:
    from papermind.services.container import Container


class _Run(Protocol):
    job_id: str
    files: list[Path]


R = TypeVar("R", bound=_Run)
STOPPED = "stopped before the end: {why}; resume with the same --job id or from the web"


def job_request(**fields: Any) -> JobRequest:
    """A job request from a command's arguments; what is wrong with them as an InputError."""
    if fields.get("language"):
        output_language(fields["language"], "en")  # an unknown code said as the commands say it
    try:
        return JobRequest(**fields)
    except ValidationError as err:
        first = err.errors()[0]
        raise InputError(str(first.get("msg", "invalid request")).removeprefix("Value error, ")
                         ) from None


def open_job(store: JobRecords, job_id: str, request: JobRequest, *,
             own: bool = False) -> Job:
    """The job ``job_id`` for ``request``: created, or an earlier one of the same kind
    reopened to resume it (``own``: this process left it running, e.g. for a sign-off)."""
    try:
        job = store.get(job_id)
    except PapermindError:
        job = None
    if job is None:
        created, new = store.create_or_get_active(job_id, request)
        if not new:
            raise ConflictError(f"the same request is already {created.status} as job "
                                f"{created.id} (in the server or another command); wait for "
                                "it, or cancel it first")
        store.add_event(created.id, "status", data={"status": "queued"})
        return created
    if job.request.kind != request.kind:
        raise InputError(f"job {job_id} is a {job.request.kind} job, not a {request.kind} job")
    if not job.finished and not own:
        raise ConflictError(f"job {job_id} is {job.status} (in the server or another "
                            "command); wait for it, or cancel it first")
    return job


async def run_recorded(store: JobRecords, request: JobRequest, job_id: str,
                       run: Callable[[ProgressCallback], Awaitable[R]], *,
                       progress: ProgressCallback | None = None, report_dir: Path | None = None,
                       own: bool = False) -> R:
    """Run ``run`` as job ``job_id`` of ``store``: status and node events recorded as the
    job service records them, copies of its report files in ``report_dir`` (the job's
    folder), failed with the reason if it stops. A run whose ``status`` is 'interrupted'
    (waiting for a sign-off) stays running for the call that resumes it (``own``)."""
    job = open_job(store, job_id, request, own=own)
    store.mark_running(job.id)
    store.add_event(job.id, "status", data={"status": "running"})

    def record(node: str, info: dict[str, object]) -> None:
        store.add_event(job.id, "node", node, info)
        if progress is not None:
            progress(node, info)

    try:
        result = await run(record)
    except BaseException as err:  # recorded as failed, then raised unchanged
        why = str(err) if isinstance(err, PapermindError) else "interrupted"
        message = STOPPED.format(why=why)
        if store.finish(job.id, "failed", error=message):
            store.add_event(job.id, "status", data={"status": "failed", "error": message})
        raise
    if report_dir is not None:
        copy_reports(result.files, report_dir)
    if getattr(result, "status", "completed") != "interrupted" and store.finish(
            job.id, "completed", usage=usage_of(result)):
        store.add_event(job.id, "status", data={"status": "completed"})
    return result


def copy_reports(files: Iterable[Path], folder: Path) -> None:
    """The report files in the job's folder too (written elsewhere with --out)."""
    for path in files:
        target = folder / path.name
        if path.resolve() != target.resolve():
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def usage_of(result: Any) -> dict[str, Any]:
    usage = getattr(getattr(result, "report", None), "usage", {})
    return usage.model_dump(mode="json") if isinstance(usage, BaseModel) else dict(usage)


async def run_as_job(container: Container, request: JobRequest, job_id: str,
                     run: Callable[[ProgressCallback], Awaitable[R]], *,
                     progress: ProgressCallback | None = None, own: bool = False) -> R:
    """``run_recorded`` in the container's job store, reports copied to the job's folder."""
    return await run_recorded(container.job_store, request, job_id, run, progress=progress,
                              report_dir=container.report_dir(job_id), own=own)
