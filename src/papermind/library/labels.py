"""Tags and collections on stored papers (deleted with the paper).

A collection is a path: 'Thesis/Chapter 2' is inside 'Thesis', and filtering by 'Thesis'
includes the papers of its sub-collections. Tags are flat. Names are kept as given; matching
is case-insensitive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from papermind.db import Database

COMPONENT = "labels"
MIGRATIONS = [
    """
    CREATE TABLE paper_labels (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        kind     TEXT NOT NULL CHECK (kind IN ('tag', 'collection')),
        name     TEXT NOT NULL COLLATE NOCASE,
        PRIMARY KEY (paper_id, kind, name)
    );
    CREATE INDEX paper_labels_name ON paper_labels(kind, name);
    """,
]

LabelKind = Literal["tag", "collection"]


def clean_name(name: str, kind: LabelKind) -> str:
    """Whitespace collapsed; collection paths without empty or padded parts."""
    if kind == "collection":
        return "/".join(" ".join(part.split()) for part in name.split("/") if part.strip())
    return " ".join(name.split())


class LabelStore:
    """Tags and collections of the library's papers."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.migrate(COMPONENT, MIGRATIONS)

    def add(self, paper_ids: Iterable[str], kind: LabelKind, names: Iterable[str]) -> int:
        """Label every paper with every name; the number of labels that were new."""
        pairs = [(p, kind, n) for p in paper_ids for n in {clean_name(x, kind) for x in names} if n]
        with self.db.transaction() as conn:
            before = conn.total_changes
            conn.executemany("INSERT OR IGNORE INTO paper_labels(paper_id, kind, name)"
                             " VALUES (?,?,?)", pairs)
            return conn.total_changes - before

    def remove(self, paper_ids: Iterable[str], kind: LabelKind, names: Iterable[str]) -> int:
        pairs = [(p, kind, clean_name(n, kind)) for p in paper_ids for n in names]
        with self.db.transaction() as conn:
            before = conn.total_changes
            conn.executemany("DELETE FROM paper_labels WHERE paper_id = ? AND kind = ?"
                             " AND name = ?", pairs)
            return conn.total_changes - before

    def of(self, paper_id: str, kind: LabelKind) -> list[str]:
        rows = self.db.query("SELECT name FROM paper_labels WHERE paper_id = ? AND kind = ?"
                             " ORDER BY name", (paper_id, kind))
        return [str(r["name"]) for r in rows]

    def names(self, kind: LabelKind) -> list[tuple[str, int]]:
        """Every name in use with its number of papers, by name."""
        rows = self.db.query("SELECT name, COUNT(*) AS n FROM paper_labels WHERE kind = ?"
                             " GROUP BY name ORDER BY name", (kind,))
        return [(str(r["name"]), int(r["n"])) for r in rows]

    def papers(self, *, tags: Sequence[str] = (), collections: Sequence[str] = ()) -> set[str]:
        """Papers with every one of ``tags`` and in every one of ``collections`` (or below)."""
        found: set[str] | None = None
        for tag in tags:
            found = self._narrow(found, "SELECT paper_id FROM paper_labels WHERE kind = 'tag'"
                                        " AND name = ?", (clean_name(tag, "tag"),))
        for collection in collections:
            path = clean_name(collection, "collection")
            found = self._narrow(found, "SELECT paper_id FROM paper_labels WHERE kind ="
                                        " 'collection' AND (name = ? OR name LIKE ? ESCAPE '\\')",
                                 (path, _like_prefix(path)))
        return found or set()

    def _narrow(self, found: set[str] | None, sql: str, params: tuple[str, ...]) -> set[str]:
        ids = {str(r["paper_id"]) for r in self.db.query(sql, params)}
        return ids if found is None else found & ids


def _like_prefix(path: str) -> str:
    escaped = path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "/%"
