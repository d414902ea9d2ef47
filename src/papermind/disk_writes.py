"""Writes that fail cleanly: a full disk (or a read-only file system, an I/O error) becomes a
``StorageError`` naming the cause and the place, and a file is written whole or not at all.

``storage_fault(err)`` recognises such a failure anywhere in an exception's chain: an
``OSError`` (ENOSPC, EDQUOT, EROFS, EIO), SQLite's "database or disk is full" and "disk I/O
error", PostgreSQL's disk-full state (53100). The edges (CLI, API, job runner, a batch add)
call it on errors they did not expect, so the user reads "no space left on the device at
PATH" instead of a traceback, a 500 or a blamed file.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from papermind.errors import StorageError

_CAUSES = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "the disk quota is used up",
           errno.EROFS: "the file system is read-only", errno.EIO: "an I/O error"}
_SQL_CAUSES = {"database or disk is full": errno.ENOSPC, "disk i/o error": errno.EIO,
               "attempt to write a readonly database": errno.EROFS}
HINT = "free some space (or fix the device) and try again; what failed was not stored"


def storage_fault(err: BaseException, where: Path | str | None = None) -> StorageError | None:
    """The StorageError that ``err`` (or an error it was raised from) amounts to, or None."""
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, StorageError):
            return current
        code, path = _cause(current)
        if code is not None:
            place = path or (str(where) if where else None)
            if code == errno.EIO and place and _full(place):
                code = errno.ENOSPC  # SQLite says "disk I/O error" when a journal write fails
            at = f" at {place}" if place else ""
            return StorageError(f"{_CAUSES[code]}{at}", hint=HINT)
        current = current.__cause__ or current.__context__
    return None


FULL_BELOW = 256 * 1024
"""Free bytes under which a file system counts as full when an I/O error is reported."""


def _full(place: str) -> bool:
    path = Path(place)
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        stats = os.statvfs(path)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < FULL_BELOW


def _cause(err: BaseException) -> tuple[int | None, str | None]:
    if isinstance(err, OSError) and err.errno in _CAUSES:
        name = str(err.filename) if err.filename else None
        if name and Path(name).name.startswith(".tmp-"):
            name = str(Path(name).parent)  # the folder, not our temporary file's name
        return err.errno, name
    if getattr(err, "sqlstate", None) == "53100":  # PostgreSQL: disk_full
        return errno.ENOSPC, "the PostgreSQL server"
    message = str(err).lower()
    if type(err).__module__.startswith("sqlite3"):
        for text, code in _SQL_CAUSES.items():
            if text in message:
                return code, None
    return None, None


@contextmanager
def storage_faults(where: Path | str | None = None) -> Iterator[None]:
    """Raise a recognised disk fault inside the block as a StorageError (``where`` when the
    error names no path)."""
    try:
        yield
    except StorageError:
        raise
    except Exception as err:
        fault = storage_fault(err, where)
        if fault is None:
            raise
        raise fault from err


def write_atomically(path: Path, data: bytes | str) -> None:
    """Write ``path`` whole or not at all (a temporary file renamed into place); a disk fault
    is a StorageError and leaves no temporary file behind."""
    temp = path.with_name(f".tmp-{secrets.token_hex(6)}-{path.name}")
    with storage_faults(path):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(temp, "wb") as handle:
                handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            os.replace(temp, path)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
