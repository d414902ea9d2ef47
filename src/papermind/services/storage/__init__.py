"""Storage backends: which ``storage.url`` opens what, decided once, here.

A ``StorageBackend`` says which URL schemes it accepts and builds each storage port on
them: the library database (with the backend's search stores), the job store, the workflow
checkpointer, and what only a shared server has (a job queue for workers, LLM limits held
across processes). ``BACKENDS`` is the registry; the container asks ``backend_for`` once
and every storage property asks the backend it got.

Adding a backend edits no existing file but this one (one entry in ``BACKENDS``): its own
folder (``services/storage/<name>/``) holds its ``StorageBackend``, its ``SqlDatabase``
handle with the tables of the portable components (as ``db.sqlite.schema`` lists them) and
whichever ports it keeps differently (search stores, job store, queue...); nothing else asks
which backend it is (``tests/services/test_storage_backends.py`` registers one that way).
The two built in keep each part beside the port it implements: handles and schemas in
``db/<name>/``, search stores in ``library``, jobs and checkpoints in ``services``.
"""

from __future__ import annotations

from papermind.db import SqlDatabase
from papermind.errors import ConfigError
from papermind.services.storage.backend import SharedLimits, StorageBackend, WorkQueue
from papermind.services.storage.postgres import POSTGRES
from papermind.services.storage.sqlite import SQLITE

__all__ = ["BACKENDS", "SharedLimits", "StorageBackend", "WorkQueue", "backend_for",
           "open_database"]


BACKENDS: dict[str, StorageBackend] = {backend.name: backend for backend in (SQLITE, POSTGRES)}
"""The registry, by backend name."""


def backend_for(url: str) -> StorageBackend:
    """The backend whose scheme ``url`` has (``ConfigError`` when none does)."""
    scheme = url.split("://", 1)[0] if "://" in url else ""
    for backend in BACKENDS.values():
        if scheme in backend.schemes:
            return backend
    raise ConfigError(f"unsupported storage.url {scheme or url!r}", hint="use " + " or ".join(
        backend.url_example for backend in BACKENDS.values()))


def open_database(url: str) -> SqlDatabase:
    """The library database ``url`` names, opened by its backend."""
    return backend_for(url).database(url)
