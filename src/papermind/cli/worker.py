"""``papermind worker``: run queued jobs on this machine (scale-out, storage on PostgreSQL)."""

from __future__ import annotations

from typing import Annotated

import typer

from papermind.cli.context import container, state


def worker(
    ctx: typer.Context,
    concurrency: Annotated[int | None, typer.Option(
        min=1, help="Jobs this worker runs at once (default: jobs.worker_concurrency).")] = None,
) -> None:
    """Run queued jobs on this machine until stopped (library on PostgreSQL).

    Start any number, on any machines that reach the same PostgreSQL (storage.url) and the
    same model endpoints. Ctrl-C / SIGTERM: no new jobs; running ones get
    jobs.shutdown_timeout seconds to finish, then go back on the queue; a worker that dies
    has its jobs resumed by another from their last checkpoint."""
    import asyncio

    from papermind.errors import ConfigError
    from papermind.services.logs import configure_json_logging
    from papermind.services.worker import WorkerOptions, run_worker, warm_up

    settings = state(ctx).settings
    if not settings.on_postgres:
        raise ConfigError("workers need the library on PostgreSQL",
                          hint="set PAPERMIND_STORAGE__URL=postgresql://user@host:5432/db; "
                               "with the embedded library `papermind serve` runs the jobs")
    jobs = settings.jobs
    options = WorkerOptions(concurrency=concurrency or jobs.worker_concurrency,
                            heartbeat_s=jobs.heartbeat_s, stalled_after_s=jobs.stalled_after_s,
                            shutdown_timeout_s=jobs.shutdown_timeout)
    configure_json_logging()
    box = container(ctx)
    service = box.job_service(enqueue_only=False)

    async def work() -> None:
        await warm_up(box)
        await run_worker(service, box.storage_url, options, reports=box.report_dir)
    asyncio.run(work())


def register(app: typer.Typer) -> None:
    app.command()(worker)
