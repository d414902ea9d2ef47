"""Stored papers: one row per paper (keyed by content hash) plus the original file.

The parsed Paper is kept as JSON next to a few indexed columns for listing. ``add`` and
``remove`` are all-or-nothing: row, file and whatever the caller's hook writes (the search
index) commit together or not at all.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from papermind.db import SqlDatabase
from papermind.domain import Paper
from papermind.domain.paper import GUESSED_TITLE_SOURCES
from papermind.errors import ConflictError, InputError, NotFoundError
from papermind.library.file_store import FileStore, PendingRemoval, StagedFile

COMPONENT = "papers"
_NO_LIMIT = 2**62

AddStatus = Literal["added", "exists"]
PaperHook = Callable[[Paper], None]
RemoveHook = Callable[[str], None]

_GUESS_TEST = " OR ".join(f"""substr(data, 1, 4096) LIKE '%"title_source":"{source}"%'"""
                          for source in sorted(GUESSED_TITLE_SOURCES))
_SUMMARY_COLUMNS = ("id, title, authors, year, source_name, source_type, pages, file_name,"
                    f" size_bytes, added_at, CASE WHEN {_GUESS_TEST} THEN 1 ELSE 0 END AS guessed")
"""The row's columns, and whether its title is a guess: read off the head of the stored
parse (``title_source`` comes early in its JSON), so rows stored before it need nothing."""
_HEX = re.compile(r"^[0-9a-f]+$")


class PaperRecord(BaseModel):
    """What the library knows about a stored paper, without its full parse."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="sha256 of the original file (hex)")
    title: str = Field(default="", description="parsed title ('' when none was found)")
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    source_name: str = Field(default="", description="original file name")
    source_type: str = Field(description="'pdf', 'txt' or 'md'")
    pages: int = Field(default=0, description="number of pages")
    file: Path = Field(description="the stored copy of the original file")
    size_bytes: int = 0
    added_at: datetime = Field(description="when it was added (UTC)")
    title_guessed: bool = Field(default=False, description="the title is a guess (the first "
                                "line of text or the file name: ``Paper.title_source``)")


class PaperStore(Protocol):
    """The papers port: stored papers and their original files (``PaperRepository`` on
    either engine)."""

    files: FileStore

    def add(self, paper: Paper, data: bytes, *,
            on_stored: PaperHook | None = None) -> AddStatus: ...

    def exists(self, paper_id: str) -> bool: ...

    def get(self, paper_id: str) -> Paper: ...

    def record(self, paper_id: str) -> PaperRecord: ...

    def list(self, *, limit: int | None = None, offset: int = 0) -> list[PaperRecord]: ...

    def count(self) -> int: ...

    def resolve(self, id_or_prefix: str) -> str: ...

    def remove(self, paper_id: str, *, on_removed: RemoveHook | None = None) -> PaperRecord: ...

    def file_path(self, paper_id: str) -> Path: ...

    def update_metadata(self, paper_id: str, **fields: object) -> Paper: ...


class _AlreadyStored(Exception):
    """Another process stored the same paper after our check (rolls our attempt back)."""


class PaperRepository:
    """Papers in the library database, originals in ``files_dir``."""

    def __init__(self, db: SqlDatabase, files_dir: Path) -> None:
        self.db = db
        self.files = FileStore(files_dir)
        db.migrate(COMPONENT)
        self.files.sweep_stale()

    def add(self, paper: Paper, data: bytes, *, on_stored: PaperHook | None = None) -> AddStatus:
        """Store ``paper`` and its original bytes; ``exists`` (and nothing done) if stored.

        ``on_stored`` runs inside the same transaction (e.g. indexing); if it raises, nothing
        is stored and the error propagates.
        """
        staged: StagedFile | None = None
        try:
            with _busy_is_conflict(), self.db.transaction() as conn:
                if self._exists(conn, paper.id):
                    return "exists"
                staged = self.files.stage(_file_name(paper), data)
                if not self._insert(conn, paper, staged.final.name, len(data)):
                    raise _AlreadyStored
                if on_stored is not None:
                    on_stored(paper)
                staged.commit()
        except _AlreadyStored:
            if staged is not None:
                staged.discard()
            return "exists"
        except BaseException:
            if staged is not None:
                staged.discard()
            raise
        return "added"

    def exists(self, paper_id: str) -> bool:
        return self._exists(self.db.conn, paper_id)

    def get(self, paper_id: str) -> Paper:
        """The stored Paper; NotFoundError when there is none."""
        rows = self.db.query("SELECT data FROM papers WHERE id = ?", (paper_id,))
        if not rows:
            raise NotFoundError(f"no paper with id {paper_id}")
        return Paper.model_validate_json(rows[0]["data"])

    def record(self, paper_id: str) -> PaperRecord:
        rows = self.db.query(f"SELECT {_SUMMARY_COLUMNS} FROM papers WHERE id = ?", (paper_id,))
        if not rows:
            raise NotFoundError(f"no paper with id {paper_id}")
        return self._record(rows[0])

    def list(self, *, limit: int | None = None, offset: int = 0) -> list[PaperRecord]:
        """Stored papers, newest first."""
        rows = self.db.query(
            f"SELECT {_SUMMARY_COLUMNS} FROM papers ORDER BY added_at DESC, rowid DESC"
            " LIMIT ? OFFSET ?", (_NO_LIMIT if limit is None else limit, offset))
        return [self._record(row) for row in rows]

    def count(self) -> int:
        return int(self.db.query("SELECT COUNT(*) AS n FROM papers")[0]["n"])

    def resolve(self, id_or_prefix: str) -> str:
        """The full id for an id or a unique prefix of one."""
        prefix = id_or_prefix.strip().lower()
        if not prefix:
            raise InputError("empty paper id")
        if not _HEX.match(prefix):
            raise NotFoundError(f"no paper with id {id_or_prefix!r}",
                                hint="ids are hexadecimal; see `papermind list`")
        rows = self.db.query("SELECT id FROM papers WHERE substr(id, 1, ?) = ? LIMIT 3",
                             (len(prefix), prefix))
        if not rows:
            raise NotFoundError(f"no paper with id {id_or_prefix!r}", hint="see `papermind list`")
        if len(rows) > 1:
            raise InputError(f"id prefix {id_or_prefix!r} matches several papers",
                             hint="give more characters")
        return str(rows[0]["id"])

    def remove(self, paper_id: str, *, on_removed: RemoveHook | None = None) -> PaperRecord:
        """Delete the row and the original file; ``on_removed`` runs in the same transaction."""
        pending: PendingRemoval | None = None
        try:
            with _busy_is_conflict(), self.db.transaction() as conn:
                record = self.record(paper_id)
                conn.execute("DELETE FROM papers WHERE id = ?", (paper_id,))
                pending = self.files.set_aside(record.file.name)
                if on_removed is not None:
                    on_removed(paper_id)
        except BaseException:
            if pending is not None:
                pending.restore()
            raise
        if pending is not None:
            pending.commit()
        return record

    def file_path(self, paper_id: str) -> Path:
        return self.record(paper_id).file

    def update_metadata(self, paper_id: str, **fields: object) -> Paper:
        """Replace some of a stored paper's metadata (``title``, ``authors``, ``year``,
        ``doi``, ``arxiv``), e.g. with what a reference manager says; the new Paper."""
        unknown = set(fields) - {"title", "authors", "year", "doi", "arxiv"}
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        with _busy_is_conflict(), self.db.transaction() as conn:
            paper = _updated(self.get(paper_id), fields)
            conn.execute("UPDATE papers SET title = ?, authors = ?, year = ?, data = ? WHERE id = ?",
                         (paper.title, json.dumps(paper.authors, ensure_ascii=False), paper.year,
                          paper.model_dump_json(), paper_id))
        return paper

    @staticmethod
    def _exists(conn: Any, paper_id: str) -> bool:
        return conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone() is not None

    @staticmethod
    def _insert(conn: Any, paper: Paper, file_name: str, size: int) -> bool:
        """Insert the row; False when another writer stored the paper meanwhile."""
        return bool(conn.execute(
            "INSERT INTO papers(id, title, authors, year, source_name, source_type, pages,"
            " file_name, size_bytes, added_at, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(id) DO NOTHING",
            (paper.id, paper.title, json.dumps(paper.authors, ensure_ascii=False), paper.year,
             paper.source_name, paper.source_type, len(paper.pages), file_name, size,
             datetime.now(UTC).isoformat(timespec="microseconds"), paper.model_dump_json())
        ).rowcount)

    def _record(self, row: Any) -> PaperRecord:
        return PaperRecord(
            id=row["id"], title=row["title"], authors=json.loads(row["authors"]),
            year=row["year"], source_name=row["source_name"], source_type=row["source_type"],
            pages=row["pages"], file=self.files.path(row["file_name"]),
            size_bytes=row["size_bytes"], added_at=datetime.fromisoformat(row["added_at"]),
            title_guessed=bool(row["guessed"]))


@contextmanager
def _busy_is_conflict() -> Iterator[None]:
    """SQLite's 'database is locked' (another writer held it past the timeout) as a clear error."""
    try:
        yield
    except sqlite3.OperationalError as err:  # PostgreSQL writers wait on row locks instead
        if "locked" not in str(err) and "busy" not in str(err):
            raise
        raise ConflictError("the library is busy: another PaperMind process is writing to it",
                            hint="try again when it has finished") from err


def _updated(paper: Paper, fields: dict[str, object]) -> Paper:
    """``paper`` with new metadata: a changed title now comes from the record, and changed
    authors lose the markers printed after the parsed names."""
    extra: dict[str, object] = {}
    if "title" in fields and fields["title"] != paper.title:
        extra["title_source"] = "metadata"
    if "authors" in fields and fields["authors"] != paper.authors:
        extra["author_marks"] = []
    return paper.model_copy(update={**fields, **extra})


def _file_name(paper: Paper) -> str:
    if len(paper.id) != 64 or not _HEX.match(paper.id):
        raise ValueError(f"paper id must be a sha256 hex digest, got {paper.id!r}")
    return f"{paper.id}.{paper.source_type}"
