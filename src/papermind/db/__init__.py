"""The SQL seam: the port every store is written against, and one folder per backend.

``SqlDatabase`` is what the stores of library, llm, scholar and services use; ``db.sqlite``
(the embedded default) and ``db.postgres`` implement it, each with the tables of the
portable components in its own ``schema`` module. Which backend a ``storage.url`` opens is
decided once, by the storage registry of the composition root (``services.storage``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Database", "SqlDatabase"]


class SqlDatabase(Protocol):
    """The library database port: SQLite (``Database``) or PostgreSQL (``db.postgres.PgDatabase``).

    Statements use ``?`` placeholders and the SQL both engines share (``ON CONFLICT``,
    window functions, ``rowid`` as an explicit column on PostgreSQL); rows read by position
    or by column name. What differs by engine is asked of the handle (``json_integer``,
    ``migrate``'s schema, ``search_stores``), never branched on.
    """

    @property
    def dialect(self) -> str:
        """The backend's name (``sqlite``, ``postgres``): for messages and tests."""

    @property
    def path(self) -> Path | str | None:
        """The SQLite file (``None`` on PostgreSQL): files kept beside the library use it."""

    @property
    def conn(self) -> Any:
        """The connection (``execute`` / ``executemany`` with ``?`` placeholders)."""

    @property
    def search_stores(self) -> Callable[..., Any] | None:
        """The backend's own search stores (a ``library.ports.SearchStores``), given by the
        backend that opened the handle; ``None``: the library's embedded ones (SQLite's)."""

    def transaction(self) -> AbstractContextManager[Any]: ...

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any: ...

    def query(self, sql: str, params: Sequence[object] = ()) -> list[Any]: ...

    def has_tables(self, names: Sequence[str]) -> bool: ...

    def json_integer(self, column: str, key: str) -> str:
        """SQL reading the integer ``key`` of the JSON text in ``column``."""

    def migrate(self, component: str, steps: Sequence[str] | None = None) -> int:
        """Apply ``component``'s steps not applied yet: ``steps`` (a store that exists on
        this backend only), else the backend's schema's; returns the new version."""

    def close(self) -> None: ...


from papermind.db.sqlite import Database  # noqa: E402  (the embedded default, used everywhere)
