"""The library database on PostgreSQL: the same surface as ``papermind.db.Database``.

One connection per process, guarded by a lock, like the SQLite handle: ``transaction()`` is
all-or-nothing and nests as savepoints, so a component's writes join a caller's unit of work
(a paper's row, its chunks and its catalog entry commit together or not at all). Statements
are written once for both engines with ``?`` placeholders; they become ``%s`` here.
Migrations (``db.postgres.schema``) run under an advisory lock, so processes starting at
once apply each step once.
Needs the ``postgres`` extra (psycopg 3, pgvector).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from papermind.db.migrations import steps_of
from papermind.db.postgres.schema import MIGRATIONS
from papermind.errors import ConfigError

DIALECT = "postgres"
_MIGRATION_LOCK = 0x7061706572  # "paper": one advisory lock key for schema changes
_PLACEHOLDER = re.compile(r"\?(?![|&])")
"""A ``?`` parameter; ``?|`` and ``?&`` are JSONB operators."""


def with_keepalives(url: str, idle_s: int) -> str:
    """``url`` with libpq's TCP keepalive parameters added (any it already names are kept):
    a connection whose peer vanished (a lost machine, a NAT or firewall that dropped it)
    fails after about ``idle_s`` + 3 probes ``idle_s / 3`` apart instead of hanging.
    ``idle_s`` 0: the URL unchanged (the OS default). libpq ignores them on Unix sockets."""
    if idle_s <= 0:
        return url
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    for key, value in (("keepalives", 1), ("keepalives_idle", idle_s),
                       ("keepalives_interval", max(1, idle_s // 3)), ("keepalives_count", 3)):
        query.setdefault(key, str(value))
    return urlunsplit(parts._replace(query=urlencode(query, safe="/", quote_via=quote)))


class Row(tuple[Any, ...]):
    """A result row readable by position and by column name (like ``sqlite3.Row``)."""

    names: tuple[str, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self.names.index(key))
        return super().__getitem__(key)

    def keys(self) -> list[str]:
        return list(self.names)


def _row_factory(cursor: Any) -> Any:
    names = tuple(d.name for d in cursor.description or ())
    kind = type("Row", (Row,), {"names": names})
    return lambda values: kind(values)


def translate(sql: str) -> str:
    """``?`` placeholders to psycopg's ``%s`` (literal ``%`` doubled first; the JSONB
    operators ``?|`` and ``?&`` stay)."""
    return _PLACEHOLDER.sub("%s", sql.replace("%", "%%"))


class PgConnection:
    """What ``transaction()`` yields: execute / executemany with ``?`` placeholders."""

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return bool(self.raw.info.transaction_status != TransactionStatus.IDLE)

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        return self.raw.execute(translate(sql), tuple(params) if params else None)

    def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> Any:
        cursor = self.raw.cursor()
        rows = list(rows)
        if rows:
            cursor.executemany(translate(sql), rows)
        return cursor


class PgDatabase:
    """A thread-safe handle on one PostgreSQL database (needs the ``vector`` extension)."""

    dialect = DIALECT
    path = None  # no file: nothing (e.g. an ANN sidecar) is kept beside it

    def __init__(self, url: str, *, search_stores: Callable[..., Any] | None = None) -> None:
        self.search_stores = search_stores
        try:
            import psycopg
        except ImportError as error:
            raise ConfigError("storage.url is a PostgreSQL URL but psycopg is not installed",
                              hint="pip install 'papermind[postgres]'") from error
        self.url = url
        self._lock = threading.RLock()
        try:
            raw = psycopg.connect(url, autocommit=True, row_factory=_row_factory)
        except psycopg.OperationalError as error:
            raise ConfigError(f"cannot connect to the PostgreSQL library: {error}".strip(),
                              hint="check storage.url and that the server is running") from error
        self.conn = PgConnection(raw)
        self._prepare(raw)

    @staticmethod
    def _prepare(raw: Any) -> None:
        """pgvector and the migrations table, once, even when processes start together."""
        import psycopg

        try:
            with raw.transaction():
                raw.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                raw.execute("CREATE EXTENSION IF NOT EXISTS vector")
                raw.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                            " component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        except psycopg.errors.FeatureNotSupported as error:
            raise ConfigError("the PostgreSQL library needs the pgvector extension",
                              hint="install pgvector on the server, then run "
                                   "CREATE EXTENSION vector as its owner") from error
        except psycopg.errors.UndefinedFile as error:
            raise ConfigError("the PostgreSQL server has no pgvector extension",
                              hint="install pgvector (https://github.com/pgvector/pgvector) "
                                   "or use pgserver; see docs/scale-out.md") from error
        from pgvector.psycopg import register_vector

        register_vector(raw)

    @contextmanager
    def transaction(self) -> Iterator[PgConnection]:
        """All-or-nothing block; nested blocks (same thread) are savepoints."""
        with self._lock, self.conn.raw.transaction():
            yield self.conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        with self._lock:
            return self.conn.execute(sql, params)

    def query(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        with self._lock:
            return list(self.conn.execute(sql, params).fetchall())

    def has_tables(self, names: Sequence[str]) -> bool:
        rows = self.query("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()"
                          f" AND tablename IN ({','.join('?' * len(names))})", list(names))
        return int(rows[0][0]) == len(set(names))

    def version(self, component: str) -> int:
        row = self.query("SELECT version FROM schema_migrations WHERE component = ?", (component,))
        return int(row[0]["version"]) if row else 0

    def json_integer(self, column: str, key: str) -> str:
        return f"({column}::jsonb ->> '{key}')::integer"

    def migrate(self, component: str, steps: Sequence[str] | None = None) -> int:
        """Apply the component's steps not applied yet (``steps``, else the schema's);
        returns the new version."""
        scripts = steps_of(MIGRATIONS, DIALECT, component, steps)
        with self._lock, self.conn.raw.transaction():
            self.conn.raw.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            current = self.version(component)
            for number, script in enumerate(scripts[current:], start=current + 1):
                self.conn.raw.execute(script)
                self.conn.execute(
                    "INSERT INTO schema_migrations(component, version) VALUES (?, ?)"
                    " ON CONFLICT(component) DO UPDATE SET version = excluded.version",
                    (component, number))
            return max(current, len(scripts))

    def close(self) -> None:
        with self._lock:
            self.conn.raw.close()
