"""Is a backup folder safe to restore? Checked before anything of the live library is touched.

A backup is data from wherever it came from: ``verify_backup`` refuses (InputError naming
the first problem) a folder whose manifest is not JSON, whose databases are not SQLite or fail
SQLite's integrity check, whose library was written by a newer PaperMind (a schema version
this one does not know) or is no PaperMind library at all, whose stored file names are not
plain content-addressed names inside ``files/``, whose files are missing, or which holds a
symbolic link or any other non-regular file anywhere under it.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from papermind.db.sqlite.schema import MIGRATIONS
from papermind.errors import InputError

MANIFEST = "papermind-backup.json"
LIBRARY, CHECKPOINTS, FILES, REPORTS = "library.sqlite3", "checkpoints.sqlite3", "files", "reports"
SQLITE_HEADER = b"SQLite format 3\x00"
STORED_NAME = re.compile(r"[0-9a-f]{64}\.[a-z0-9]{1,10}")
"""How the file store names an original: its sha256 and its type."""


@dataclass(frozen=True)
class VerifiedBackup:
    """A backup that passed every check, and the stored files its library names."""

    folder: Path
    file_names: tuple[str, ...]
    has_checkpoints: bool
    has_reports: bool


def verify_backup(src: Path) -> VerifiedBackup:
    """Every check of the module docstring; InputError at the first that fails."""
    if not _regular(src / MANIFEST) or not (src / LIBRARY).exists():
        raise InputError(f"{src}: not a PaperMind backup (no {MANIFEST})")
    try:
        manifest = json.loads((src / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise InputError(f"{src}: its {MANIFEST} is unreadable: not restored") from err
    if not isinstance(manifest, dict):
        raise InputError(f"{src}: its {MANIFEST} is not a backup manifest: not restored")
    for tree in (FILES, REPORTS):
        _no_links(src, src / tree)
    check_database(src / LIBRARY)
    has_checkpoints = (src / CHECKPOINTS).exists()
    if has_checkpoints:
        check_database(src / CHECKPOINTS)
    names = _library_files(src / LIBRARY)
    missing = [n for n in names if not _regular(src / FILES / n)]
    if missing:
        raise InputError(f"{src}: {len(missing)} stored file(s) of the backup are missing, "
                         f"e.g. {missing[0]}: not restored")
    return VerifiedBackup(src, tuple(sorted(names)), has_checkpoints, (src / REPORTS).is_dir())


def check_database(path: Path) -> None:
    """InputError unless ``path`` is a regular SQLite file that passes its integrity check."""
    if not _regular(path):
        raise InputError(f"{path}: not a regular file (a link or a folder): not restored")
    with path.open("rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise InputError(f"{path}: not an SQLite database: not restored")
    try:
        with closing(read_only(path)) as conn:
            verdict = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)")]
    except sqlite3.DatabaseError as err:
        raise InputError(f"{path}: a damaged database ({err}): not restored") from err
    if verdict != ["ok"]:
        raise InputError(f"{path}: a damaged database ({verdict[0][:200]}): not restored")


def read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection that ignores any journal or WAL file lying beside ``path``."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def _library_files(db: Path) -> list[str]:
    """The stored file names of a PaperMind library, after checking its schema versions."""
    try:
        with closing(read_only(db)) as conn:
            tables = {str(r[0]) for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"papers", "schema_migrations"} <= tables:
                raise InputError(f"{db}: not a PaperMind library (no papers table): not restored")
            versions = conn.execute("SELECT component, version FROM schema_migrations").fetchall()
            names = [r[0] for r in conn.execute("SELECT file_name FROM papers")]
    except sqlite3.DatabaseError as err:
        raise InputError(f"{db}: not a PaperMind library ({err}): not restored") from err
    for component, version in versions:
        known = len(MIGRATIONS.get(str(component), ())) or None
        if known is not None and (not isinstance(version, int) or version > known):
            raise InputError(f"{db}: written by a newer PaperMind ({component} schema version "
                             f"{version}, this one knows {known}): not restored",
                             hint="restore it with the version that took it")
    bad = [n for n in names if not isinstance(n, str) or not STORED_NAME.fullmatch(n)]
    if bad:
        raise InputError(f"{db}: a stored file name is not a plain file name "
                         f"({str(bad[0])[:80]!r}): not restored")
    return [str(n) for n in names]


def _no_links(src: Path, tree: Path) -> None:
    """InputError when ``tree`` is, or holds, a symbolic link or a special file."""
    if not os.path.lexists(tree):
        return
    if tree.is_symlink() or not tree.is_dir():
        raise InputError(f"{tree}: not a plain folder (a link?): not restored")
    for folder, dirs, files in os.walk(tree, followlinks=False):
        for name in [*dirs, *files]:
            mode = os.lstat(Path(folder) / name).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                shown = (Path(folder) / name).relative_to(src)
                raise InputError(f"{src}: {shown} is a link or a special file: not restored")


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
