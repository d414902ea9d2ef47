"""``papermind backup DEST`` / ``papermind restore SRC`` for the embedded (SQLite) library.

A backup is a folder: the library database and the workflow checkpoints, each copied with
SQLite's online backup API (a consistent snapshot, taken while ``serve`` reads and writes),
then the stored originals and the job reports. Originals are content-addressed and written
before the database row that names them is committed, so every file the snapshot refers to
exists by the time the files are copied; files added after the snapshot are left out (the
snapshot does not know them). Caches (page images, models) are not copied: they rebuild.
Restoring copies the same back into an empty home (or, with ``force``, over an existing one
that no server is using). PostgreSQL libraries are backed up with ``pg_dump`` (docs/operations.md).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from papermind import __version__
from papermind.config import Settings
from papermind.errors import ConfigError, ConflictError, InputError
from papermind.library.file_store import TEMP_PREFIX

MANIFEST = "papermind-backup.json"
LIBRARY, CHECKPOINTS, FILES, REPORTS = "library.sqlite3", "checkpoints.sqlite3", "files", "reports"
FILE_WAIT_S = 5.0


@dataclass(frozen=True)
class BackupSummary:
    """What a backup or a restore copied."""

    folder: Path
    papers: int
    files: int
    bytes: int


def backup(settings: Settings, dest: Path) -> BackupSummary:
    """Copy the library under ``settings`` into the new or empty folder ``dest``."""
    _embedded_only(settings)
    if not settings.db_path.is_file():
        raise InputError(f"{settings.db_path}: no library here to back up")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise ConflictError(f"{dest}: exists and is not an empty folder",
                            hint="give a new folder for the backup")
    dest.mkdir(parents=True, exist_ok=True)
    _snapshot(settings.db_path, dest / LIBRARY)
    if settings.checkpoint_path.is_file():
        _snapshot(settings.checkpoint_path, dest / CHECKPOINTS)
    wanted = _stored_files(dest / LIBRARY)
    copied, size = _copy_files(settings.files_dir, dest / FILES, wanted)
    if (settings.home_dir / REPORTS).is_dir():
        shutil.copytree(settings.home_dir / REPORTS, dest / REPORTS)
    papers = _papers(dest / LIBRARY)
    (dest / MANIFEST).write_text(json.dumps({
        "version": __version__, "taken_at": time.time(), "papers": papers, "files": copied},
        indent=2), encoding="utf-8")
    return BackupSummary(dest, papers, copied, size)


def restore(settings: Settings, src: Path, *, force: bool = False) -> BackupSummary:
    """Copy the backup ``src`` into the home of ``settings`` (empty, unless ``force``)."""
    _embedded_only(settings)
    if not (src / MANIFEST).is_file() or not (src / LIBRARY).is_file():
        raise InputError(f"{src}: not a PaperMind backup (no {MANIFEST})")
    if settings.db_path.is_file() and not force:
        raise ConflictError(f"{settings.home_dir}: a library is already here",
                            hint="restore into a new --home, or add --force (stop serve first)")
    settings.home_dir.mkdir(parents=True, exist_ok=True)
    for db in (settings.db_path, settings.checkpoint_path):
        _clear_beside(db)
    _snapshot(src / LIBRARY, settings.db_path)
    if (src / CHECKPOINTS).is_file():
        _snapshot(src / CHECKPOINTS, settings.checkpoint_path)
    copied, size = _copy_files(src / FILES, settings.files_dir, None)
    if (src / REPORTS).is_dir():
        shutil.copytree(src / REPORTS, settings.home_dir / REPORTS, dirs_exist_ok=True)
    return BackupSummary(settings.home_dir, _papers(settings.db_path), copied, size)


def _embedded_only(settings: Settings) -> None:
    from papermind.services.storage import backend_for

    if not backend_for(settings.storage_url).file_backup:
        raise ConfigError("backup and restore copy the embedded SQLite library",
                          hint="back up PostgreSQL with pg_dump and the files folder "
                               "(storage.files) with your usual tools; see docs/operations.md")


def _snapshot(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite database ``source`` (online backup API)."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True, timeout=30)) as src, \
            closing(sqlite3.connect(partial)) as dst:
        src.backup(dst, pages=1024)
    partial.replace(target)


def _clear_beside(db: Path) -> None:
    """Remove what belongs to the database being replaced: its WAL and journal (their frames
    would be replayed onto the restored file) and the search indexes built from it (BM25
    folder, HNSW files: they rebuild from the restored rows)."""
    for suffix in ("-wal", "-shm", "-journal"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    shutil.rmtree(db.with_name(db.name + ".bm25"), ignore_errors=True)
    for index in db.parent.glob(f"{db.name}.*.usearch*"):
        index.unlink(missing_ok=True)


def _stored_files(db: Path) -> set[str]:
    """File names of the originals the database snapshot refers to."""
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return {str(r[0]) for r in conn.execute("SELECT file_name FROM papers") if r[0]}


def _copy_files(source: Path, target: Path, wanted: set[str] | None) -> tuple[int, int]:
    """Copy ``wanted`` names (every committed file when None) from ``source`` to ``target``.

    A file is renamed into place when its add commits, a moment after its row: a name of the
    snapshot that is not there yet is waited for (up to FILE_WAIT_S), then reported."""
    names = wanted if wanted is not None else {
        p.name for p in source.glob("*") if p.is_file() and not p.name.startswith(TEMP_PREFIX)}
    copied = size = 0
    deadline = time.monotonic() + FILE_WAIT_S
    pending = sorted(names)
    while pending:
        missing = []
        for name in pending:
            path = source / name
            if not path.is_file():
                missing.append(name)
                continue
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / name)
            copied, size = copied + 1, size + path.stat().st_size
        if missing and time.monotonic() > deadline:
            raise InputError(f"{source}: {len(missing)} stored file(s) of the library are "
                             f"missing, e.g. {missing[0]}")
        pending = missing
        if pending:
            time.sleep(0.1)
    return copied, size


def _papers(db: Path) -> int:
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0])
