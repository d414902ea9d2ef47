"""The job queue of a scale-out deployment: procrastinate on the library's PostgreSQL.

`papermind serve` puts a job id on the queue; any `papermind worker` takes it
(``SELECT ... FOR UPDATE SKIP LOCKED`` inside procrastinate). A queue entry carries the job
id only: the job itself (request, status, events) is in the job store, its progress in the
checkpointer. Chosen by bench/queue_choice.py. Needs the ``postgres`` extra.
"""

from __future__ import annotations

import logging
from typing import Any

from papermind.errors import ConfigError

log = logging.getLogger("papermind.jobs")
QUEUE = "papermind"
TASK = "papermind.run_job"
_SCHEMA_LOCK = 0x7071756575  # "pqueue": one schema install at a time


def procrastinate_app(url: str, *, sync: bool = False) -> Any:
    """A procrastinate App on ``url`` (async connector for workers, sync for enqueueing)."""
    try:
        import procrastinate
    except ImportError as error:
        raise ConfigError("the job queue needs procrastinate",
                          hint="pip install 'papermind[postgres]'") from error
    connector = (procrastinate.SyncPsycopgConnector(conninfo=url) if sync
                 else procrastinate.PsycopgConnector(conninfo=url))
    return procrastinate.App(connector=connector)


def ensure_schema(url: str) -> None:
    """Install procrastinate's tables once, even when several processes start together."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
        if row is not None and row[0] is not None:
            return
        from procrastinate import schema

        conn.execute(schema.SchemaManager.get_schema())


class PostgresJobQueue:
    """Enqueues job ids for the workers; an id already waiting is not queued twice."""

    def __init__(self, url: str) -> None:
        ensure_schema(url)
        self.app = procrastinate_app(url, sync=True)
        self.app.open()

    def enqueue(self, job_id: str) -> None:
        from procrastinate import exceptions

        task = self.app.configure_task(TASK, queue=QUEUE, lock=job_id, queueing_lock=job_id)
        try:
            task.defer(job_id=job_id)
        except exceptions.AlreadyEnqueued:
            log.info("job already waiting in the queue", extra={"job_id": job_id})

    def close(self) -> None:
        self.app.close()
