"""The library database on SQLite: one file, migrations per component.

Each component (papers, search, llm cache, jobs...) owns its tables; their SQLite scripts
are ``db.sqlite.schema.MIGRATIONS`` (a store that exists on SQLite only passes its own).
``Database.migrate(component)`` applies the steps not yet applied, each in a transaction,
and records the version in ``schema_migrations``.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from papermind.db.migrations import steps_of
from papermind.db.sqlite.schema import MIGRATIONS

log = logging.getLogger(__name__)

DIALECT = "sqlite"


class Database:
    """A thread-safe handle on the library's SQLite file (WAL mode)."""

    dialect = DIALECT

    def __init__(self, path: Path | str, *,
                 search_stores: Callable[..., Any] | None = None) -> None:
        self.search_stores = search_stores
        self.path = Path(path) if str(path) != ":memory:" else path
        if isinstance(self.path, Path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._depth = 0
        self.conn = self._connect(str(path))
        try:
            self.conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:
            # WAL's shared-memory file cannot be made (a full disk): this process alone, with
            # the index in its own memory, can still read the library (list, search)
            log.warning("cannot open %s in shared WAL mode (a full disk?); opening it for "
                        "this process alone", path)
            self.conn.close()
            self.conn = self._connect(str(path))
            self.conn.execute("PRAGMA locking_mode=EXCLUSIVE")
            self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " component TEXT PRIMARY KEY, version INTEGER NOT NULL)")

    @staticmethod
    def _connect(path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30.0)
        conn.row_factory = sqlite3.Row
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All-or-nothing block: commits on success, rolls back on any exception.

        Nested blocks (same thread) become savepoints of the outer transaction, so a
        component's writes can join a caller's unit of work (e.g. indexing a new paper).
        """
        with self._lock:
            if self.conn.in_transaction:
                yield from self._savepoint()
                return
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def _savepoint(self) -> Iterator[sqlite3.Connection]:
        self._depth += 1
        name = f"sp{self._depth}"
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            raise
        finally:
            self._depth -= 1
        self.conn.execute(f"RELEASE {name}")

    def execute(self, sql: str, params: Sequence[object] | dict[str, object] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self.conn.execute(sql, params)

    def query(self, sql: str, params: Sequence[object] | dict[str, object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self.conn.execute(sql, params).fetchall()

    def version(self, component: str) -> int:
        row = self.query("SELECT version FROM schema_migrations WHERE component = ?", (component,))
        return int(row[0]["version"]) if row else 0

    def has_tables(self, names: Sequence[str]) -> bool:
        rows = self.query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                          f" ({','.join('?' * len(names))})", list(names))
        return int(rows[0][0]) == len(set(names))

    def json_integer(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    def migrate(self, component: str, steps: Sequence[str] | None = None) -> int:
        """Apply the component's steps not applied yet (``steps``, else the schema's);
        returns the new version."""
        steps = steps_of(MIGRATIONS, DIALECT, component, steps)
        with self._lock:
            current = self.version(component)
            for number, script in enumerate(steps[current:], start=current + 1):
                with self.transaction() as conn:
                    for statement in _split(script):
                        conn.execute(statement)
                    conn.execute(
                        "INSERT INTO schema_migrations(component, version) VALUES (?, ?)"
                        " ON CONFLICT(component) DO UPDATE SET version = excluded.version",
                        (component, number))
            return len(steps) if len(steps) > current else current

    def close(self) -> None:
        with self._lock:
            self.conn.close()


def _split(script: str) -> list[str]:
    """Split a migration script into statements (complete per sqlite3.complete_statement)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
