"""`papermind worker`: take jobs from the PostgreSQL queue and run them, on any machine.

Leases, three layers, each with one job:

- procrastinate's worker heartbeat: a worker that stops beating for ``stalled_after_s``
  (killed, frozen, its machine gone) is stalled; a sweep that every worker runs (one at a
  time, under an advisory lock) puts its jobs back on the queue for another worker;
- an advisory lock per job, held on the running worker's own connection: no job runs on two
  workers at once, even if a sweep misjudges a slow worker. A worker that finds the lock
  taken retries later; a dead worker's lock goes with its connection;
- the checkpointer (durability "sync"): the worker that resumes a job starts from its last
  checkpoint, so completed nodes never run again.

A cancel made through any API process is seen by the running worker within a second.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papermind.errors import PapermindError
from papermind.services.job_queue import QUEUE, TASK, ensure_schema, procrastinate_app
from papermind.services.jobs import JobHeld, JobService

if TYPE_CHECKING:
    from papermind.services.workflow_runs import RunParts

log = logging.getLogger("papermind.worker")
JOB_LOCK = 0x6A6F62  # "job": advisory lock class of running jobs (int4, hashtext(job id))
SWEEP_LOCK = 0x7377656570  # "sweep": one stalled-job sweep at a time
CANCEL_POLL_S = 1.0
ReportDir = Callable[[str], Path]


class JobBusy(PapermindError):
    """Another live worker holds the job's lock; the queue retries it later."""


class JobReleased(PapermindError):
    """The worker stopped before the job finished: back on the queue for another worker,
    which resumes it from its last checkpoint."""


@dataclass(frozen=True)
class WorkerOptions:
    """How one worker process takes jobs."""

    concurrency: int = 2
    heartbeat_s: float = 2.0
    stalled_after_s: float = 10.0
    shutdown_timeout_s: float = 25.0


async def run_worker(service: JobService, url: str, options: WorkerOptions, *,
                     reports: ReportDir | None = None, until_idle: bool = False) -> None:
    """Take and run jobs until a signal stops the worker (or, ``until_idle``, the queue is
    empty: tests). SIGTERM / SIGINT: take no more jobs, let the running ones finish for up to
    ``shutdown_timeout_s``, then stop them and put them back on the queue (released, resumed
    elsewhere from their checkpoints); SIGKILL leaves them to the stalled-worker sweep.
    ``reports`` (job id -> folder): a completed job's report files go into the job store,
    so an API process on another machine can serve them."""
    import procrastinate

    ensure_schema(url)
    app = procrastinate_app(url)
    retry = procrastinate.RetryStrategy(max_attempts=10_000, wait=int(options.stalled_after_s),
                                        retry_exceptions={JobBusy, JobReleased})

    @app.task(name=TASK, queue=QUEUE, retry=retry)
    async def run_job(job_id: str) -> None:
        try:
            await run_leased(service, url, job_id)
        except JobHeld as held:  # a live process (a CLI command) owns it: try again later
            raise JobBusy(str(held)) from None
        if reports is not None and service.store.get(job_id).status == "completed":
            folder = reports(job_id)
            service.store.attach_files(job_id, {p.name: p.read_bytes()
                                                for p in sorted(folder.glob("report.*"))})

    async with app.open_async():
        sweeper = asyncio.create_task(sweep_stalled(app, url, options))
        try:
            await app.run_worker_async(
                queues=[QUEUE], concurrency=options.concurrency, wait=not until_idle,
                update_heartbeat_interval=options.heartbeat_s,
                stalled_worker_timeout=options.stalled_after_s,
                install_signal_handlers=not until_idle, listen_notify=True,
                shutdown_graceful_timeout=options.shutdown_timeout_s,
                delete_jobs="successful")  # the job store keeps the record; the queue forgets
        finally:
            sweeper.cancel()
            await asyncio.gather(sweeper, return_exceptions=True)


async def warm_up(container: RunParts) -> None:
    """Load what a first job would (the use cases, their graphs compiled, the model gateway,
    the checkpoint tables) before the worker registers for jobs, so a new worker's first job
    takes as long as the rest: cold, it took 9 s against 1.9 s (bench/scale_workers.py)."""
    from papermind.domain.workflows import WORKFLOWS
    from papermind.services.workflow_table import graph_modules, use_case

    for spec in WORKFLOWS.values():
        use_case(spec)
    container.gateway  # noqa: B018 - builds the model gateway
    async with container.checkpointer() as saver:
        for spec in WORKFLOWS.values():
            for graph in graph_modules(spec):
                graph.build_graph().compile(checkpointer=saver)


async def run_leased(service: JobService, url: str, job_id: str) -> None:
    """Run one job while holding its advisory lock; stop it if it is cancelled elsewhere."""
    import psycopg

    name = f"papermind-worker-{os.getpid()}"  # pg_stat_activity shows who runs what
    async with await psycopg.AsyncConnection.connect(url, autocommit=True,
                                                     application_name=name) as conn:
        if not await _fetch_bool(conn, "SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                 (JOB_LOCK, job_id)):
            log.warning("job is running on another worker", extra={"job_id": job_id})
            raise JobBusy(f"job {job_id} is running on another worker")
        job = service.store.get(job_id)
        task = asyncio.create_task(service.execute(job), name=f"job-{job_id}")
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=CANCEL_POLL_S)
                if not task.done() and service.store.get(job_id).status == "cancelled":
                    service.stop_cancelled(job_id)
        except asyncio.CancelledError:  # the worker is stopping (shutdown timeout passed)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # leaves the job 'running'
            log.warning("worker stopping; job released to the queue", extra={"job_id": job_id})
            raise JobReleased(f"job {job_id} released: its worker stopped") from None
        await task


async def sweep_stalled(app: Any, url: str, options: WorkerOptions) -> None:
    """Every ``heartbeat_s``: put the jobs of stalled workers back on the queue."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        while True:
            await asyncio.sleep(options.heartbeat_s)
            try:
                if not await _fetch_bool(conn, "SELECT pg_try_advisory_lock(%s)", (SWEEP_LOCK,)):
                    continue
                try:
                    await _retry_stalled(app, options.stalled_after_s)
                finally:
                    await conn.execute("SELECT pg_advisory_unlock(%s)", (SWEEP_LOCK,))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("stalled-job sweep failed; trying again")


async def _retry_stalled(app: Any, stalled_after_s: float) -> None:
    stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after_s,
                                                     queue=QUEUE)
    for job in stalled:
        log.warning("worker stalled; job back on the queue",
                    extra={"job_id": job.task_kwargs.get("job_id"), "worker": job.worker_id})
        await app.job_manager.retry_job(job)


async def _fetch_bool(conn: Any, sql: str, params: tuple[Any, ...]) -> bool:
    cursor = await conn.execute(sql, params)
    row = await cursor.fetchone()
    return bool(row and row[0])
