"""Runs started outside the job service (the CLI's `read`, `review`, `ask`) kept as jobs in
the library's one job store: the server's /api/jobs and the web's Jobs page list them,
their events are the same as a server job's, their reports sit in the job's folder (the
reader opens them), and either side resumes one that stopped."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from papermind.domain.job import Job, JobRequest, JobStatus
from papermind.errors import ConflictError, InputError, PapermindError
from papermind.services.job_leases import LeaseKeeper, lease_live
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
    reopened to resume it: finished, or left unfinished by an owner that is gone (``own``:
    this process left it running, e.g. for a sign-off)."""
    try:
        job = store.get(job_id)
    except PapermindError:
        job = None
    if job is None:
        created, new = store.create_or_get_active(job_id, request)
        if not new:
            raise ConflictError(f"the same request is already {created.status} as job "
                                f"{created.id} ({_where(created)}); wait for it, or cancel "
                                "it first")
        store.add_event(created.id, "status", data={"status": "queued"})
        return created
    if job.request.kind != request.kind:
        raise InputError(f"job {job_id} is a {job.request.kind} job, not a {request.kind} job")
    if not job.finished and not own and lease_live(job):
        raise ConflictError(f"job {job_id} is {job.status} ({_where(job)}); wait for it, or "
                            "cancel it first")
    return job


def _where(job: Job) -> str:
    return f"run by {job.owner.label}" if job.owner else "in the server or another command"


async def run_recorded(leases: LeaseKeeper, request: JobRequest, job_id: str,
                       run: Callable[[ProgressCallback], Awaitable[R]], *,
                       progress: ProgressCallback | None = None, report_dir: Path | None = None,
                       own: bool = False) -> R:
    """Run ``run`` as job ``job_id`` of the leases' store, under this process's lease (a
    server started meanwhile leaves the job to it): status and node events recorded as the
    job service records them, copies of its report files in ``report_dir`` (the job's
    folder), failed with the reason if it stops. A run whose ``status`` is 'interrupted'
    (waiting for a sign-off) stays running, its lease held, for the call that resumes it
    (``own``) or ``end_job``."""
    store = leases.store
    job = open_job(store, job_id, request, own=own)
    if store.reopen(job.id):  # a failed or cancelled run, resumed from its checkpoint
        job = store.get(job.id)
    lost = _Stopper()
    if job.status != "completed":  # (a completed one only shows its report again)
        if not leases.take(job, on_lost=lost):
            raise ConflictError(f"job {job.id} is {job.status} ({_where(store.get(job.id))});"
                                " wait for it, or cancel it first")
        store.mark_running(job.id)
        store.add_event(job.id, "status", data={"status": "running"})

    def record(node: str, info: dict[str, object]) -> None:
        store.add_event(job.id, "node", node, info)
        if progress is not None:
            progress(node, info)

    try:
        result = await run(record)
    except asyncio.CancelledError:
        ended = store.get(job.id)
        if not lost.fired or not ended.finished:
            end_job(leases, job.id, "failed", STOPPED.format(why="interrupted"))
            raise
        _uncancel()
        raise ConflictError(f"job {job.id} was {ended.status} elsewhere (the web, the API or "
                            "another command); stopped here") from None
    except BaseException as err:  # recorded as failed, then raised unchanged
        why = str(err) if isinstance(err, PapermindError) else "interrupted"
        message = STOPPED.format(why=why)
        end_job(leases, job.id, "failed", message)
        raise
    if report_dir is not None:
        copy_reports(result.files, report_dir)
    if getattr(result, "status", "completed") != "interrupted":
        leases.drop(job.id)
        if store.finish(job.id, "completed", usage=usage_of(result)):
            store.add_event(job.id, "status", data={"status": "completed"})
    return result


class _Stopper:
    """Cancels the running task from the lease keeper's thread when the lease is lost."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.fired = False

    def __call__(self, job_id: str) -> None:
        self.fired = True
        if self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)


def _uncancel() -> None:
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


def end_job(leases: LeaseKeeper, job_id: str, status: JobStatus, message: str) -> None:
    """Finish a job this process holds as ``status`` (failed, cancelled), with the reason."""
    leases.drop(job_id)
    if leases.store.finish(job_id, status, error=message):
        leases.store.add_event(job_id, "status", data={"status": status, "error": message})


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
    return await run_recorded(container.job_leases, request, job_id, run, progress=progress,
                              report_dir=container.report_dir(job_id), own=own)
