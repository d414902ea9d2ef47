"""Original files of stored papers, under ``storage.files`` (``<home>/files/<id><ext>``
by default; a folder several machines may share).

Writes are staged: the bytes go to a hidden temporary name first and are renamed into place
only when the caller's unit of work commits, so a failure never leaves a half-stored file.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
import time
from pathlib import Path

from papermind.disk_writes import storage_faults

TEMP_PREFIX = ".tmp-"
HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:10]
"""This machine, in temporary names: the folder may be shared (``storage.files``)."""
STALE_TEMP_S = 3600.0
"""A temporary file of a process that may still be alive is only swept after this long."""


class StagedFile:
    """A file written under a temporary name; ``commit`` renames it, ``discard`` removes it."""

    def __init__(self, temp: Path, final: Path) -> None:
        self.temp = temp
        self.final = final
        self.committed = False

    def commit(self) -> Path:
        os.replace(self.temp, self.final)
        self.committed = True
        return self.final

    def discard(self) -> None:
        """Undo: remove the temporary file, or the final one if it was already renamed."""
        (self.final if self.committed else self.temp).unlink(missing_ok=True)
        self.committed = False


class PendingRemoval:
    """A file moved aside; ``commit`` deletes it, ``restore`` puts it back."""

    def __init__(self, path: Path, aside: Path | None) -> None:
        self.path = path
        self.aside = aside

    def commit(self) -> None:
        if self.aside is not None:
            self.aside.unlink(missing_ok=True)

    def restore(self) -> None:
        if self.aside is not None and self.aside.exists():
            os.replace(self.aside, self.path)


class FileStore:
    """Content-addressed copies of original files in one folder."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, name: str) -> Path:
        """Where ``name`` is kept. A stored name is a plain file name: only its last part is
        used, so a crafted row (``../x``, an absolute path) cannot point outside the folder."""
        return self.root / Path(name).name

    def stage(self, name: str, data: bytes) -> StagedFile:
        """Write ``data`` under a temporary name that becomes ``name`` on commit."""
        temp = self.root / _temp_name(name)
        with storage_faults(self.root):
            try:
                self.root.mkdir(parents=True, exist_ok=True)
                with open(temp, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
            except BaseException:
                temp.unlink(missing_ok=True)  # a full disk leaves no half-written file
                raise
        return StagedFile(temp, self.root / name)

    def set_aside(self, name: str) -> PendingRemoval:
        """Move ``name`` to a temporary name, ready to be deleted or restored."""
        path = self.root / name
        if not path.exists():
            return PendingRemoval(path, None)
        aside = self.root / _temp_name(name)
        os.replace(path, aside)
        return PendingRemoval(path, aside)

    def sweep_stale(self, older_than_s: float = STALE_TEMP_S) -> int:
        """Delete temporary files left by a crashed process; returns how many.

        A temporary name carries its writer's process id: one whose process is gone (a
        SIGKILL during ``add``) is removed at once; others only once ``older_than_s`` old.
        """
        if not self.root.is_dir():
            return 0
        cutoff = time.time() - older_than_s
        removed = 0
        for temp in self.root.glob(f"{TEMP_PREFIX}*"):
            try:
                if not _writer_alive(temp.name) or temp.stat().st_mtime < cutoff:
                    temp.unlink()
                    removed += 1
            except FileNotFoundError:
                continue
        return removed

    def names(self) -> list[str]:
        """Names of the committed files (temporary ones excluded)."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir()
                      if p.is_file() and not p.name.startswith(TEMP_PREFIX))


def _temp_name(name: str) -> str:
    return f"{TEMP_PREFIX}{os.getpid()}@{HOST}-{secrets.token_hex(6)}-{name}"


def _writer_alive(temp_name: str) -> bool:
    """Whether the process that wrote ``temp_name`` may still be running (True if unknown:
    a writer on another machine sharing the folder is judged by age, never by its pid)."""
    pid, _, host = temp_name[len(TEMP_PREFIX):].split("-", 1)[0].partition("@")
    if host and host != HOST:
        return True
    if not pid.isdigit() or len(pid) > 9:
        return True  # an older name without a process id: judged by age
    if int(pid) == os.getpid():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
