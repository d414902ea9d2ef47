"""The scale-out backend: PostgreSQL + pgvector (``postgresql://user@host:port/db``).

The library database is ``db.postgres.PgDatabase`` with the PostgreSQL search stores
(``library.pg_stores``); jobs (``services.job_store_pg``), the job queue for `papermind
worker` (``services.job_queue``, procrastinate), LangGraph's Postgres checkpointer and the
LLM limits (``llm.shared_limiter``) are on the same server, so any worker resumes any job.
Every connection gets TCP keepalives (``storage.keepalive_s``). Needs the ``postgres`` extra.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papermind.services.storage.backend import SharedLimits, StorageBackend, WorkQueue

if TYPE_CHECKING:
    from papermind.db import SqlDatabase
    from papermind.services.job_store import JobRecords
    from papermind.services.jobs import JobQueue


def open_postgres(url: str) -> SqlDatabase:
    from papermind.db.postgres import PgDatabase

    return PgDatabase(url, search_stores=postgres_search)


def postgres_search(db: SqlDatabase, *, lexical_min_rows: int | None) -> Any:
    """``library.pg_stores`` (imported when search is first built)."""
    from papermind.library.pg_stores import pg_search

    return pg_search(db, lexical_min_rows=lexical_min_rows)


def with_keepalives(url: str, keepalive_s: int) -> str:
    from papermind.db.postgres import with_keepalives as add

    return add(url, keepalive_s)


def postgres_jobs(url: str, db: Callable[[], SqlDatabase]) -> JobRecords:
    """Jobs on the server the API and every worker share (its own small pool)."""
    from papermind.services.job_store_pg import PostgresJobStore

    return PostgresJobStore(url)


@asynccontextmanager
async def postgres_checkpointer(url: str, path: Path) -> AsyncIterator[Any]:
    from papermind.services.checkpoints import postgres_checkpointer as open_saver

    async with open_saver(url) as saver:
        yield saver


def postgres_queue(url: str) -> JobQueue:
    from papermind.services.job_queue import PostgresJobQueue

    return PostgresJobQueue(url)


async def procrastinate_worker(service: Any, url: str, options: Any, *,
                               reports: Any = None) -> None:
    from papermind.services.worker import run_worker

    await run_worker(service, url, options, reports=reports)


def shared_limiters(url: str) -> Any:
    from papermind.llm.shared_limiter import shared_limiters as build

    return build(url)


async def close_shared_limiters() -> None:
    from papermind.llm.shared_limiter import close_shared_limiters as close

    await close()


POSTGRES = StorageBackend(
    name="postgres", schemes=("postgresql", "postgres"),
    url_example="postgresql://user@host:port/database", database=open_postgres,
    job_store=postgres_jobs, checkpointer=postgres_checkpointer,
    connection_url=with_keepalives,
    job_queue=WorkQueue(open=postgres_queue, work=procrastinate_worker),
    shared_limits=SharedLimits(factory=shared_limiters, close=close_shared_limiters))
