"""``papermind backup DEST`` / ``papermind restore SRC`` for the embedded (SQLite) library.

A backup is a folder: the library database and the workflow checkpoints, each copied with
SQLite's online backup API (a consistent snapshot, taken while ``serve`` reads and writes),
then the stored originals and the job reports. Originals are content-addressed and written
before the database row that names them is committed, so every file the snapshot refers to
exists by the time the files are copied; files added after the snapshot are left out (the
snapshot does not know them). Caches (page images, models) are not copied: they rebuild.
Restoring verifies the backup first (``backup_check``: SQLite integrity, schema version, file
names inside the library, no links), stages it beside the live library, swaps it in and
deletes the old library only once the new one opens; into an empty home, or with ``force``
over an existing one that no server is using. PostgreSQL libraries are backed up with ``pg_dump`` (docs/operations.md).
"""

from __future__ import annotations

import json
import os
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
from papermind.services.backup_check import (
    CHECKPOINTS,
    FILES,
    LIBRARY,
    MANIFEST,
    REPORTS,
    VerifiedBackup,
    check_database,
    read_only,
    verify_backup,
)

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
    """Put the backup ``src`` in place of the library of ``settings`` (an empty home, unless
    ``force``). The backup is verified first (``backup_check``); it is copied into staging
    places beside the live ones; then the live library is set aside, the staged one moved in,
    and the old one deleted only once the new one opens (put back if anything fails)."""
    _embedded_only(settings)
    verified = verify_backup(src)
    if settings.db_path.is_file() and not force:
        raise ConflictError(f"{settings.home_dir}: a library is already here",
                            hint="restore into a new --home, or add --force (stop serve first)")
    settings.home_dir.mkdir(parents=True, exist_ok=True)
    stamp = f"{os.getpid()}-{time.time_ns()}"
    plan = _restore_plan(settings, verified)
    staged: list[Path] = []
    try:
        for source, target in plan:
            staged.append(_staging(target, stamp))
            _stage(source, staged[-1], verified)
        _swap(settings, dict(zip(staged, (t for _, t in plan), strict=True)), stamp)
    finally:
        for path in staged:
            _remove(path)
    copied = len(verified.file_names)
    size = sum((settings.files_dir / n).stat().st_size for n in verified.file_names)
    return BackupSummary(settings.home_dir, _papers(settings.db_path), copied, size)


def _restore_plan(settings: Settings, verified: VerifiedBackup) -> list[tuple[Path, Path]]:
    """(what of the backup, where it goes) for each part the backup holds."""
    src = verified.folder
    plan = [(src / LIBRARY, settings.db_path), (src / FILES, settings.files_dir)]
    if verified.has_checkpoints:
        plan.append((src / CHECKPOINTS, settings.checkpoint_path))
    if verified.has_reports:
        plan.append((src / REPORTS, settings.home_dir / REPORTS))
    return plan


def _stage(source: Path, target: Path, verified: VerifiedBackup) -> None:
    """Copy one part of the backup to its staging place (databases by SQLite's backup API,
    the originals the library names, the reports tree; links are never followed)."""
    if source.name in (LIBRARY, CHECKPOINTS):
        _snapshot(source, target, immutable=True)
        return
    target.mkdir(parents=True)
    if source.name == FILES:
        for name in verified.file_names:
            shutil.copyfile(source / name, target / name, follow_symlinks=False)
        return
    for folder, _, files in os.walk(source, followlinks=False):
        here = target / Path(folder).relative_to(source)
        here.mkdir(exist_ok=True)
        for name in files:
            if not (Path(folder) / name).is_symlink():
                shutil.copyfile(Path(folder) / name, here / name, follow_symlinks=False)


def _swap(settings: Settings, staged: dict[Path, Path], stamp: str) -> None:
    """Set the live library aside, move the staged parts in, check the new library opens;
    on any failure put the old library back as it was."""
    old = [p for p in _live_parts(settings) if os.path.lexists(p)]
    moved: list[tuple[Path, Path]] = []
    placed: list[Path] = []
    try:
        for path in old:
            aside = path.with_name(f".pre-restore-{stamp}-{path.name}")
            path.rename(aside)
            moved.append((path, aside))
        for source, target in staged.items():
            source.rename(target)
            placed.append(target)
        check_database(settings.db_path)
        _papers(settings.db_path)
    except BaseException:
        for target in placed:
            _remove(target)
        for path, aside in reversed(moved):
            aside.rename(path)
        raise
    for _, aside in moved:
        _remove(aside)


def _live_parts(settings: Settings) -> list[Path]:
    """Everything of the live library a restore replaces: both databases with their WAL and
    journal files, the search indexes built from them, the originals and the reports."""
    parts = [settings.files_dir, settings.home_dir / REPORTS]
    for db in (settings.db_path, settings.checkpoint_path):
        parts += [db, *(db.with_name(db.name + s) for s in ("-wal", "-shm", "-journal"))]
    parts.append(settings.db_path.with_name(settings.db_path.name + ".bm25"))
    parts += sorted(settings.home_dir.glob(f"{settings.db_path.name}.*.usearch*"))
    return parts


def _staging(target: Path, stamp: str) -> Path:
    """A staging place beside ``target`` (same file system: the swap is a rename)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return target.with_name(f".restore-{stamp}-{target.name}")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        path.unlink(missing_ok=True)


def _embedded_only(settings: Settings) -> None:
    from papermind.services.storage import backend_for

    if not backend_for(settings.storage_url).file_backup:
        raise ConfigError("backup and restore copy the embedded SQLite library",
                          hint="back up PostgreSQL with pg_dump and the files folder "
                               "(storage.files) with your usual tools; see docs/operations.md")


def _snapshot(source: Path, target: Path, *, immutable: bool = False) -> None:
    """A consistent copy of the SQLite database ``source`` (online backup API); a backup's
    database is read ``immutable`` (a WAL or journal lying beside it is ignored)."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    source_conn = read_only(source) if immutable else sqlite3.connect(
        f"{source.as_uri()}?mode=ro", uri=True, timeout=30)
    with closing(source_conn) as src, closing(sqlite3.connect(partial)) as dst:
        src.backup(dst, pages=1024)
    partial.replace(target)


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
