"""Tags and collections on stored papers (deleted with the paper).

A collection is a path: 'Thesis/Chapter 2' is inside 'Thesis', and filtering by 'Thesis'
includes the papers of its sub-collections. Tags are flat. Names are kept as given; matching
is case-insensitive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from papermind.db import SqlDatabase

COMPONENT = "labels"

LabelKind = Literal["tag", "collection"]


def clean_name(name: str, kind: LabelKind) -> str:
    """Whitespace collapsed; collection paths without empty or padded parts."""
    if kind == "collection":
        return "/".join(" ".join(part.split()) for part in name.split("/") if part.strip())
    return " ".join(name.split())


class LabelStore:
    """Tags and collections of the library's papers."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT)

    def add(self, paper_ids: Iterable[str], kind: LabelKind, names: Iterable[str]) -> int:
        """Label every paper with every name; the number of labels that were new."""
        pairs = [(p, kind, n) for p in paper_ids for n in {clean_name(x, kind) for x in names} if n]
        with self.db.transaction() as conn:
            return _changed(conn, "INSERT INTO paper_labels(paper_id, kind, name)"
                                  " VALUES (?,?,?) ON CONFLICT DO NOTHING", pairs)

    def remove(self, paper_ids: Iterable[str], kind: LabelKind, names: Iterable[str]) -> int:
        pairs = [(p, kind, clean_name(n, kind)) for p in paper_ids for n in names]
        with self.db.transaction() as conn:
            return _changed(conn, "DELETE FROM paper_labels WHERE paper_id = ? AND kind = ?"
                                  " AND lower(name) = lower(?)", pairs)

    def of(self, paper_id: str, kind: LabelKind) -> list[str]:
        rows = self.db.query("SELECT name FROM paper_labels WHERE paper_id = ? AND kind = ?"
                             " ORDER BY lower(name), name", (paper_id, kind))
        return [str(r["name"]) for r in rows]

    def names(self, kind: LabelKind) -> list[tuple[str, int]]:
        """Every name in use with its number of papers, by name."""
        rows = self.db.query("SELECT MIN(name) AS name, COUNT(*) AS n FROM paper_labels"
                             " WHERE kind = ? GROUP BY lower(name) ORDER BY lower(name)", (kind,))
        return [(str(r["name"]), int(r["n"])) for r in rows]

    def papers(self, *, tags: Sequence[str] = (), collections: Sequence[str] = ()) -> set[str]:
        """Papers with every one of ``tags`` and in every one of ``collections`` (or below)."""
        found: set[str] | None = None
        for tag in tags:
            found = self._narrow(found, "SELECT paper_id FROM paper_labels WHERE kind = 'tag'"
                                        " AND lower(name) = lower(?)", (clean_name(tag, "tag"),))
        for collection in collections:
            path = clean_name(collection, "collection")
            found = self._narrow(
                found, "SELECT paper_id FROM paper_labels WHERE kind = 'collection' AND"
                       " (lower(name) = lower(?) OR substr(lower(name), 1, ?) = lower(?))",
                (path, len(path) + 1, path + "/"))
        return found or set()

    def _narrow(self, found: set[str] | None, sql: str, params: tuple[object, ...]) -> set[str]:
        ids = {str(r["paper_id"]) for r in self.db.query(sql, params)}
        return ids if found is None else found & ids


def _changed(conn: Any, sql: str, rows: Sequence[tuple[str, str, str]]) -> int:
    """Rows changed by running ``sql`` once per row (either engine)."""
    return sum(max(0, conn.execute(sql, row).rowcount) for row in rows)
