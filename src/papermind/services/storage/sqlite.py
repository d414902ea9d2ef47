"""The embedded backend: one SQLite file under the home folder (``sqlite:///<path>``).

The library database is ``db.sqlite.Database`` with the library's own search stores; jobs
live in the same file, checkpoints in a SQLite file beside it. No job queue (the serving
process runs jobs) and no shared LLM limits (one process holds them).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papermind.services.storage.backend import StorageBackend

if TYPE_CHECKING:
    from papermind.db import SqlDatabase
    from papermind.services.job_store import JobRecords

PREFIX = "sqlite:///"
EXAMPLE = "sqlite:///<path>"


def open_sqlite(url: str) -> SqlDatabase:
    """``sqlite:///<path>`` (``sqlite:////abs/path`` for an absolute one)."""
    from papermind.db import Database
    from papermind.errors import ConfigError

    if not url.startswith(PREFIX):
        raise ConfigError(f"unsupported storage.url {url.split('://')[0]!r}",
                          hint=f"use {EXAMPLE}")
    return Database(url[len(PREFIX):], search_stores=sqlite_search)


def sqlite_search(db: SqlDatabase, *, lexical_min_rows: int | None) -> Any:
    """The library's own search stores (imported when search is first built: numpy and
    the indexes stay out of `list` and `show`)."""
    from papermind.library.ports import embedded_search

    return embedded_search(db, lexical_min_rows=lexical_min_rows)


def sqlite_jobs(url: str, db: Callable[[], SqlDatabase]) -> JobRecords:
    """Jobs and their events in the library file."""
    from papermind.services.job_store import JobStore

    return JobStore(db())


@asynccontextmanager
async def sqlite_checkpointer(url: str, path: Path) -> AsyncIterator[Any]:
    """LangGraph's SQLite checkpointer on ``path`` (its own file, so the async checkpointer
    never contends for the library's write lock); our serializer."""
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from papermind.services.checkpoints import serializer

    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(str(path)) as conn:
        yield AsyncSqliteSaver(conn, serde=serializer())


SQLITE = StorageBackend(
    name="sqlite", schemes=("sqlite",), url_example=EXAMPLE, database=open_sqlite,
    job_store=sqlite_jobs, checkpointer=sqlite_checkpointer, file_backup=True)
