"""What a storage backend is: which URLs it opens and how it builds each storage port."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from papermind.db import SqlDatabase
    from papermind.services.job_store import JobRecords
    from papermind.services.jobs import JobQueue


def _as_given(url: str, keepalive_s: int) -> str:
    return url


@dataclass(frozen=True)
class WorkQueue:
    """A job queue that `papermind worker`s take jobs from (serving processes only enqueue)."""

    open: Callable[[str], JobQueue]
    """storage URL -> the queue a job service enqueues on."""
    work: Callable[..., Awaitable[None]]
    """``work(service, url, options, *, reports)``: take and run jobs until stopped
    (``services.worker.run_worker``'s contract)."""


@dataclass(frozen=True)
class SharedLimits:
    """LLM limits that hold across every process on the same server (``llm.shared_limiter``)."""

    factory: Callable[[str], Any]
    """storage URL -> the gateway's ``limiter_factory``."""
    close: Callable[[], Awaitable[None]]
    """Close the running loop's pools (before the loop ends)."""


@dataclass(frozen=True)
class StorageBackend:
    """One storage backend and how it builds each storage port from the storage URL."""

    name: str
    schemes: tuple[str, ...]
    """URL schemes it opens (``sqlite`` for ``sqlite:///...``)."""
    url_example: str
    """The URL's form, for messages."""
    database: Callable[[str], SqlDatabase]
    """The library database (its search stores given to the handle)."""
    job_store: Callable[[str, Callable[[], SqlDatabase]], JobRecords]
    """Job records and events, from the URL or the library database (asked lazily)."""
    checkpointer: Callable[[str, Path], AbstractAsyncContextManager[Any]]
    """The durable workflow checkpointer (URL, the SQLite checkpoint file beside the library)."""
    connection_url: Callable[[str, int], str] = _as_given
    """``storage.url`` as every connection opens it (``storage.keepalive_s`` applied)."""
    job_queue: WorkQueue | None = None
    """Where `papermind worker`s take jobs from; None: jobs run in the serving process."""
    shared_limits: SharedLimits | None = None
    """LLM limits shared by every process on the server; None: each process its own."""
    file_backup: bool = False
    """`papermind backup` / `restore` copy this library (its files under the home folder)."""
