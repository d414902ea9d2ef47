"""What earlier imports did, item by item, so an interrupted import resumes where it stopped.

Keyed by source ('zotero', 'bibtex'), origin (the resolved path of the Zotero data folder or
the .bib file) and the item's own key. Only finished items are logged; an item whose paper
has since been removed from the library counts as not done.
"""

from __future__ import annotations

from datetime import UTC, datetime

from papermind.db import SqlDatabase

COMPONENT = "imports"


class ImportLog:
    """Finished import items."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT)

    def done(self, source: str, origin: str, item_key: str) -> str | None:
        """The paper an earlier import stored for this item, if it is still in the library."""
        rows = self.db.query(
            "SELECT i.paper_id FROM import_items i JOIN papers p ON p.id = i.paper_id"
            " WHERE i.source = ? AND i.origin = ? AND i.item_key = ?", (source, origin, item_key))
        return str(rows[0]["paper_id"]) if rows else None

    def mark(self, source: str, origin: str, item_key: str, paper_id: str) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO import_items(source, origin, item_key, paper_id, done_at)"
                " VALUES (?,?,?,?,?) ON CONFLICT(source, origin, item_key) DO UPDATE"
                " SET paper_id = excluded.paper_id, done_at = excluded.done_at",
                (source, origin, item_key, paper_id, datetime.now(UTC).isoformat()))
