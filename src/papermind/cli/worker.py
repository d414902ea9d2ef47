"""``papermind worker``: run queued jobs on this machine (scale-out, storage on PostgreSQL)."""

from __future__ import annotations

from typing import Annotated

import typer

from papermind.cli.context import container, state, wants_json


def worker(
    ctx: typer.Context,
    concurrency: Annotated[int | None, typer.Option(
        min=1, help="Jobs this worker runs at once (default: jobs.worker_concurrency).")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Log JSON lines (the default when stderr is not a terminal; plain "
                       "lines in a terminal).")] = False,
) -> None:
    """Run queued jobs on this machine until stopped (library on PostgreSQL).

    Start any number, on any machines that reach the same PostgreSQL (storage.url) and the
    same model endpoints. Ctrl-C / SIGTERM: no new jobs; running ones get
    jobs.shutdown_timeout seconds to finish, then go back on the queue; a worker that dies
    has its jobs resumed by another from their last checkpoint."""

    from papermind.errors import ConfigError
    from papermind.services.logs import configure_logging, wants_json_logs
    from papermind.services.loops import run_loop
    from papermind.services.storage import backend_for
    from papermind.services.worker import WorkerOptions, warm_up

    settings = state(ctx).settings
    queue = backend_for(settings.storage_url).job_queue
    if queue is None:
        raise ConfigError("workers need the library on PostgreSQL",
                          hint="set PAPERMIND_STORAGE__URL=postgresql://user@host:5432/db; "
                               "with the embedded library `papermind serve` runs the jobs")
    jobs = settings.jobs
    options = WorkerOptions(concurrency=concurrency or jobs.worker_concurrency,
                            heartbeat_s=jobs.heartbeat_s, stalled_after_s=jobs.stalled_after_s,
                            shutdown_timeout_s=jobs.shutdown_timeout)
    configure_logging(as_json=wants_json_logs(wants_json(ctx, as_json)))
    dump_stacks_on_signals()
    box = container(ctx)
    service = box.job_service(enqueue_only=False)

    async def work() -> None:
        await warm_up(box)
        await queue.work(service, box.storage_url, options, reports=box.report_dir)
    run_loop(work())


def dump_stacks_on_signals() -> None:
    """``kill -USR1 PID``: every thread's stack to stderr; ``kill -USR2 PID``: every asyncio
    task's stack too (a worker that does not stop can say where it waits)."""
    import asyncio
    import faulthandler
    import signal
    import sys

    faulthandler.register(signal.SIGUSR1, all_threads=True)

    def tasks(*_: object) -> None:
        try:
            running = asyncio.all_tasks(asyncio.get_running_loop())
        except RuntimeError:
            return
        for task in running:
            print(f"--- {task!r}", file=sys.stderr)
            task.print_stack(file=sys.stderr)
        sys.stderr.flush()

    signal.signal(signal.SIGUSR2, tasks)


def register(app: typer.Typer) -> None:
    app.command()(worker)
