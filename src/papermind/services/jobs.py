"""Background jobs: durable records, bounded in-process workers, resume after a restart.

A job's graph runs under the container's checkpointer with thread id = job id, so a job that was
running when the process died resumes from its last checkpoint: completed nodes are not run
again, and the model cache makes any repeated call free.

With a queue (a scale-out deployment) this service only records and enqueues: `papermind
worker` processes take the jobs and run them through ``execute``.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from papermind.disk_writes import storage_fault
from papermind.domain.job import Job, JobEvent, JobKind, JobRequest
from papermind.errors import ConflictError, PapermindError
from papermind.services.job_leases import LeaseKeeper, lease_live
from papermind.services.job_store import JobRecords
from papermind.workflows.ports import ProgressCallback

log = logging.getLogger("papermind.jobs")


TAKING_S = 5.0
"""A queued job nobody has taken yet is left this long to the process that just created it
(a CLI command takes its lease right after creating the job)."""


def _being_taken(job: Job) -> bool:
    return job.owner is None and job.status == "queued" and time.time() - job.created_at < TAKING_S


class JobHeld(PapermindError):
    """Another live process (a server, a worker, a CLI command) owns the job's lease."""


@dataclass
class JobOutcome:
    """What a finished run leaves behind (reports are written to the job's folder)."""

    usage: dict[str, Any] = field(default_factory=dict)


JobRunner = Callable[[Job, ProgressCallback], Awaitable[JobOutcome]]


class JobQueue(Protocol):
    """Where a scale-out deployment puts job ids for its workers (``job_queue``)."""

    def enqueue(self, job_id: str) -> None: ...

    def close(self) -> None: ...


class JobService:
    """Queues jobs, runs at most ``workers`` at once, records events and outcomes.

    Given a ``queue``, it runs nothing itself: jobs go to the queue and workers call
    ``execute``. A job runs here only under this process's lease (``job_leases``): one
    owner per job, whichever process started it.
    """

    def __init__(self, store: JobRecords, runners: dict[JobKind, JobRunner], *,
                 workers: int = 2, queue: JobQueue | None = None,
                 lease_s: float = 30.0) -> None:
        self.store = store
        self.leases = LeaseKeeper(store, lease_s, on_lost=self._lease_lost)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.runners = runners
        self.queue = queue
        self._slots = asyncio.Semaphore(max(1, workers))
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._cancelled: set[str] = set()
        self._listeners: dict[str, list[asyncio.Queue[JobEvent]]] = {}

    async def start(self) -> list[str]:
        """Resume every job left queued or running by a process that is gone (its lease
        passed, or it ran on this host and exited). A job a live owner holds (a CLI command,
        another server, a worker) is left to it.

        Without a queue it then looks again every third of the lease, so a job whose owner
        dies later (a CLI command killed while the server runs) is resumed here too.

        With a queue: re-enqueue the jobs still queued (one may have been recorded just
        before a crash, never enqueued); running ones are the workers' (leases)."""
        self._loop = asyncio.get_running_loop()
        resumed = self._resume_orphans(quiet=False)
        if self.queue is None and self._sweeper is None:
            self._sweeper = self._loop.create_task(self._sweep(), name="job-lease-sweep")
        return resumed

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.leases.lease_s / 3)
            try:
                self._resume_orphans(quiet=True)
            except Exception:  # the store is briefly away: the next sweep tries again
                log.warning("job lease sweep failed", exc_info=True)

    def _resume_orphans(self, *, quiet: bool) -> list[str]:
        resumed = []
        for job in self.store.unfinished():
            if job.id in self._tasks or (self.queue is None and _being_taken(job)):
                continue
            if lease_live(job):
                if not quiet:
                    log.info("job held by its owner", extra={
                        "job_id": job.id, "owner": job.owner.label if job.owner else None})
                continue
            if self.queue is None:
                if not self.leases.take(job):
                    continue  # another process resumed it first
                self._schedule(job)
            elif job.status == "queued":
                self.queue.enqueue(job.id)
            else:
                continue
            resumed.append(job.id)
        if resumed:
            log.info("resuming jobs", extra={"jobs": resumed})
        return resumed

    async def stop(self) -> None:
        """Stop workers without marking their jobs: they resume on the next start."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self.leases.close(release=True)  # the next start resumes them at once
        if self.queue is not None:
            self.queue.close()

    def submit(self, request: JobRequest) -> tuple[Job, bool]:
        """Queue ``request``; an identical unfinished request returns its job (created False)."""
        if request.kind not in self.runners:
            raise PapermindError(f"{request.kind} jobs are not available in this service")
        if request.follows:  # refused now (404, 422) rather than accepted and failed later
            from papermind.services.threads import check_follow_up

            check_follow_up(self.store, request.follows)
        job, created = self.store.create_or_get_active(uuid.uuid4().hex, request)
        if created:
            self.store.add_event(job.id, "status", data={"status": "queued"})
            if self.queue is not None:
                self.queue.enqueue(job.id)
            elif self.leases.take(job):
                self._schedule(job)
        return job, created

    def cancel(self, job_id: str) -> Job:
        job = self.store.get(job_id)
        if job.finished:
            raise ConflictError(f"job {job_id} already {job.status}")
        if self.store.finish(job_id, "cancelled", error="cancelled by the user"):
            self._event(job_id, "status", data={"status": "cancelled"})
        self.stop_cancelled(job_id)
        return self.store.get(job_id)

    def resume(self, job_id: str) -> Job:
        """Run a failed or cancelled job again from its last checkpoint (finished steps are
        not repeated), wherever it was started: the server, a worker or the CLI."""
        job = self.store.get(job_id)
        if job.request.kind not in self.runners:
            raise PapermindError(f"{job.request.kind} jobs are not available in this service")
        if not self.store.reopen(job_id):
            raise ConflictError(f"job {job_id} is {job.status}; only a failed or cancelled "
                                "job can be resumed")
        self._cancelled.discard(job_id)
        self._event(job_id, "status", data={"status": "queued"})
        job = self.store.get(job_id)
        if self.queue is not None:
            self.queue.enqueue(job_id)
        elif self.leases.take(job):
            self._schedule(job)
        return job

    def stop_cancelled(self, job_id: str) -> None:
        """Stop this process's run of a job cancelled here or by another process."""
        self._cancelled.add(job_id)
        task = self._tasks.get(job_id)
        if task is not None:
            task.cancel()

    async def wait(self, job_id: str, timeout: float | None = None) -> Job:
        """Wait until the job's worker is done (tests, CLI); a queued job's, by polling."""
        task = self._tasks.get(job_id)
        if task is not None:
            await asyncio.wait({task}, timeout=timeout)
        elif self.queue is not None:
            deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
            while not self.store.get(job_id).finished and (
                    deadline is None or asyncio.get_running_loop().time() < deadline):
                await asyncio.sleep(0.2)
        return self.store.get(job_id)

    def subscribe(self, job_id: str) -> asyncio.Queue[JobEvent]:
        queue: asyncio.Queue[JobEvent] = asyncio.Queue()
        self._listeners.setdefault(job_id, []).append(queue)
        return queue

    def unsubscribe(self, job_id: str, queue: asyncio.Queue[JobEvent]) -> None:
        queues = self._listeners.get(job_id, [])
        if queue in queues:
            queues.remove(queue)

    def _lease_lost(self, job_id: str) -> None:
        """(The heartbeat's thread.) The job was finished elsewhere or taken by another
        process after this one missed its lease: stop running it here."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.stop_cancelled, job_id)

    def _schedule(self, job: Job) -> None:
        self._loop = asyncio.get_running_loop()
        task = asyncio.get_running_loop().create_task(self._run(job), name=f"job-{job.id}")
        self._tasks[job.id] = task
        task.add_done_callback(lambda _: self._tasks.pop(job.id, None))

    def _event(self, job_id: str, kind: str, node: str | None = None,
               data: dict[str, Any] | None = None) -> None:
        event = self.store.add_event(job_id, kind, node, data)
        for queue in self._listeners.get(job_id, []):
            queue.put_nowait(event)

    async def _run(self, job: Job) -> None:
        async with self._slots:
            try:
                await self.execute(job)
            except JobHeld as held:
                log.info("job left to its owner", extra={"job_id": job.id, "why": str(held)})

    async def execute(self, job: Job) -> None:
        """Run ``job`` here (resuming from its checkpoint) unless it is already finished;
        record its events and its outcome. Workers call this for the jobs they take.
        Raises ``JobHeld`` when a live process owns the job's lease."""
        current = self.store.get(job.id)
        if job.id in self._cancelled or current.finished:
            return
        self._loop = asyncio.get_running_loop()
        if not self.leases.holds(job.id) and not self.leases.take(current):
            owner = current.owner.label if current.owner else "another process"
            raise JobHeld(f"job {job.id} is running in {owner}")
        task = asyncio.current_task()
        own = task is not None and self._tasks.setdefault(job.id, task) is task
        released = False
        try:
            await self._execute(job)
        except asyncio.CancelledError:
            released = job.id not in self._cancelled  # shutdown: resumed at the next start
            raise
        finally:
            self.leases.drop(job.id, release=released)
            if own and self._tasks.get(job.id) is task:
                self._tasks.pop(job.id, None)

    async def _execute(self, job: Job) -> None:
        self.store.mark_running(job.id)
        self._event(job.id, "status", data={"status": "running"})
        log.info("job started", extra={"job_id": job.id, "kind": job.request.kind})

        def progress(node: str, info: dict[str, object]) -> None:
            self._event(job.id, "node", node, info)
            log.info("node finished", extra={"job_id": job.id, "node": node})

        try:
            outcome = await self.runners[job.request.kind](job, progress)
        except asyncio.CancelledError:
            if job.id not in self._cancelled:
                raise  # shutdown: leave it 'running' so the next start resumes it
            return
        except PapermindError as err:  # a budget stop still reports the tokens it used
            self._fail(job.id, str(err), usage=getattr(err, "usage", None) or None)
            return
        except Exception as err:
            fault = storage_fault(err)
            if fault is None:
                log.exception("job crashed", extra={"job_id": job.id})
            self._fail(job.id, str(fault) if fault else
                       "internal error while running the job; see the server log")
            return
        if self.store.finish(job.id, "completed", usage=outcome.usage):
            self._event(job.id, "status", data={"status": "completed"})
        log.info("job completed", extra={"job_id": job.id})

    def _fail(self, job_id: str, message: str, *, usage: dict[str, Any] | None = None) -> None:
        log.warning("job failed", extra={"job_id": job_id, "error": message})
        try:
            if self.store.finish(job_id, "failed", error=message, usage=usage):
                self._event(job_id, "status", data={"status": "failed", "error": message})
        except Exception as err:  # the store's disk is full too: the next start retries it
            fault = storage_fault(err)
            if fault is None:
                raise
            log.error("job %s could not be marked failed: %s", job_id, fault)
