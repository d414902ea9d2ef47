"""Who a stored paper is beyond its hash: bibliographic metadata, identifiers, versions.

One row per stored paper (deleted with it): its ``WorkMetadata`` (imported from a reference
manager, else from the parse), its DOI, arXiv id and a normalised title + first author key,
and the ``work_id`` shared by every version of the same work. A paper whose DOI, arXiv id or
title key matches a stored one joins that one's work: both are kept, linked, and the newest
(latest year, then latest added) is the work's default version.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from papermind.db import SqlDatabase
from papermind.domain.works import WorkMetadata

COMPONENT = "catalog"

MIN_TITLE_KEY = 12
"""Titles shorter than this (letters and digits) are too generic to identify a work."""
MIN_TITLE_ONLY_KEY = 24
"""Without a first author (anonymous submissions), the title alone must be at least this long."""


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """A stored paper's catalog row."""

    paper_id: str
    work_id: str
    metadata: WorkMetadata
    source: str | None = None
    source_key: str | None = None


def title_key(title: str, first_author: str) -> str | None:
    """'Attention Is All You Need', 'Vaswani' -> 'attentionisallyouneed|vaswani' (or None).

    Case, accents, spaces and punctuation are ignored; letters of any script are kept.
    """
    def fold(text: str) -> str:
        text = unicodedata.normalize("NFKD", text.casefold())
        return re.sub(r"[\W_]+", "", "".join(c for c in text if not unicodedata.combining(c)))
    title, author = fold(title), fold(first_author)
    if len(title) < (MIN_TITLE_KEY if author else MIN_TITLE_ONLY_KEY):
        return None
    return f"{title}|{author}"


class Catalog:
    """The catalog rows of the library's papers."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT)

    def record(self, paper_id: str, metadata: WorkMetadata, *, source: str | None = None,
               source_key: str | None = None) -> str | None:
        """Store (or replace) ``paper_id``'s metadata; the id of the stored paper it is a
        new version of, if its identifiers match one (None when it is a work of its own)."""
        key = title_key(metadata.title, metadata.first_author)
        with self.db.transaction() as conn:
            old = self._row(conn, paper_id)
            match = self._match(conn, paper_id, metadata.doi, metadata.arxiv, key)
            work_id = match["work_id"] if match else (old["work_id"] if old else paper_id)
            if old is not None and source is None:
                source, source_key = old["source"], old["source_key"]
            conn.execute(
                "INSERT INTO paper_works(paper_id, work_id, doi, arxiv, title_key, source,"
                " source_key, metadata) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(paper_id) DO UPDATE"
                " SET work_id=excluded.work_id, doi=excluded.doi, arxiv=excluded.arxiv,"
                " title_key=excluded.title_key, source=excluded.source,"
                " source_key=excluded.source_key, metadata=excluded.metadata",
                (paper_id, work_id, metadata.doi, metadata.arxiv, key, source, source_key,
                 metadata.model_dump_json()))
            if old is not None and old["work_id"] == paper_id and work_id != paper_id:
                conn.execute("UPDATE paper_works SET work_id = ? WHERE work_id = ?",
                             (work_id, paper_id))  # its own versions follow it
        return str(match["paper_id"]) if match else None

    def get(self, paper_id: str) -> CatalogEntry | None:
        row = self._row(self.db.conn, paper_id)
        if row is None:
            return None
        return CatalogEntry(row["paper_id"], row["work_id"],
                            WorkMetadata.model_validate_json(row["metadata"]),
                            row["source"], row["source_key"])

    def versions(self, paper_id: str) -> list[str]:
        """Every version of ``paper_id``'s work (itself included), the default first."""
        rows = self.db.query(
            "SELECT w.paper_id FROM paper_works w JOIN papers p ON p.id = w.paper_id"
            " WHERE w.work_id = (SELECT work_id FROM paper_works WHERE paper_id = ?)"
            f" ORDER BY {_newest(self.db)}", (paper_id,))
        return [str(r["paper_id"]) for r in rows] or [paper_id]

    def superseded(self) -> set[str]:
        """Papers that are an older version of a work with a newer one stored."""
        rows = self.db.query(
            "SELECT paper_id FROM (SELECT w.paper_id, ROW_NUMBER() OVER (PARTITION BY w.work_id"
            f" ORDER BY {_newest(self.db)}) AS n FROM paper_works w JOIN papers p ON p.id = w.paper_id)"
            " WHERE n > 1")
        return {str(r["paper_id"]) for r in rows}

    def unrecorded(self) -> list[str]:
        """Stored papers without a catalog row (added before the catalog existed)."""
        rows = self.db.query("SELECT id FROM papers WHERE id NOT IN"
                             " (SELECT paper_id FROM paper_works) ORDER BY added_at")
        return [str(r["id"]) for r in rows]

    @staticmethod
    def _row(conn: Any, paper_id: str) -> Any | None:
        row: Any | None = conn.execute(
            "SELECT * FROM paper_works WHERE paper_id = ?", (paper_id,)).fetchone()
        return row

    @staticmethod
    def _match(conn: Any, paper_id: str, doi: str | None, arxiv: str | None,
               key: str | None) -> Any | None:
        """The stored paper sharing an identifier with this one (DOI, then arXiv, then title)."""
        for column, value in (("doi", doi), ("arxiv", arxiv), ("title_key", key)):
            if value is None:
                continue
            row: Any | None = conn.execute(
                f"SELECT paper_id, work_id FROM paper_works WHERE {column} = ? AND paper_id != ?"
                " ORDER BY rowid LIMIT 1", (value, paper_id)).fetchone()
            if row is not None:
                return row
        return None


_NEWEST = "COALESCE({year}, p.year, 0) DESC, p.added_at DESC"


def _newest(db: SqlDatabase) -> str:
    """ORDER BY of a work's versions, newest first (the JSON accessor differs by engine)."""
    return _NEWEST.format(year=db.json_integer("w.metadata", "year"))
