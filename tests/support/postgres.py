"""A PostgreSQL server with pgvector for tests, and a fresh database per test.

Where the server comes from, first that works:

1. ``$PAPERMIND_TEST_PG_URL`` (a server URL; its ``vector`` extension must be installable);
2. a server already listening on 127.0.0.1:5432 that has the ``vector`` extension;
3. a private ``pgserver`` (PostgreSQL 16 + pgvector in a wheel, a dev dependency) started in a
   temporary folder once per test session and deleted at exit.

Each test gets its own database, cloned from a template that already has ``vector`` (about
0.1 s), and dropped afterwards. Tests skip, with the reason, only when none of the three
can be had. Fixtures (registered by tests/conftest.py):

- ``pg_server``: the session's server URL (skips when there is none);
- ``pg_url``: a fresh, empty database URL for one test;
- ``storage_url``: parametrized ``sqlite`` / ``postgres``: a fresh library URL of each backend,
  for tests that must pass on both (``request.node.callspec.id`` tells which);
- ``library_db``: that library opened (``papermind.services.storage.open_database``), closed afterwards;
- ``both_backends``: runs a test once per backend through the environment: on the
  ``postgres`` run ``PAPERMIND_STORAGE__URL`` names a fresh database, so every container and
  app the test builds from settings uses it, with jobs in the app's process
  (API tests: ``usefixtures("both_backends")``).
"""

from __future__ import annotations

import os
import secrets
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from papermind.db import SqlDatabase
from papermind.services.storage import open_database

ENV_URL = "PAPERMIND_TEST_PG_URL"
LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
TEMPLATE = "papermind_test_template"
BACKENDS = ("sqlite", "postgres")


@dataclass
class Server:
    """A reachable PostgreSQL with pgvector (``url`` names its maintenance database)."""

    url: str
    origin: str
    handle: object | None = None  # keeps a pgserver alive for the session


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` (query, e.g. a socket ``host``, kept)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _has_vector(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3, autocommit=True) as conn:
            row = conn.execute("SELECT 1 FROM pg_available_extensions"
                               " WHERE name = 'vector'").fetchone()
            return row is not None
    except psycopg.Error:
        return False


def _start_pgserver() -> Server:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR is not set
        import pgserver

    folder = Path(tempfile.mkdtemp(prefix="papermind-pg-"))
    handle = pgserver.get_server(folder, cleanup_mode="delete")
    return Server(handle.get_uri(), f"pgserver in {folder}", handle)


def find_server() -> Server | str:
    """A server with pgvector, or the reason why none could be had."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[dev]')"
    if os.environ.get(ENV_URL):
        url = os.environ[ENV_URL]
        return Server(url, f"${ENV_URL}") if _has_vector(url) else \
            f"${ENV_URL} is set but that server has no 'vector' extension"
    if _has_vector(LOCAL_URL):
        return Server(LOCAL_URL, "127.0.0.1:5432")
    try:
        return _start_pgserver()
    except ImportError:
        return "no PostgreSQL with pgvector: 127.0.0.1:5432 lacks it and pgserver is not installed"
    except Exception as error:  # a failed start says why, and the tests skip with it
        return f"pgserver failed to start: {error!r}"


def create_database(server_url: str) -> str:
    """A new empty database with ``vector`` (from the template); its URL."""
    import psycopg

    name = f"papermind_test_{secrets.token_hex(6)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                        (TEMPLATE,)).fetchone() is None:
            _create_template(conn, server_url)
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    return with_database(server_url, name)


def _create_template(conn: object, server_url: str) -> None:
    import psycopg

    assert isinstance(conn, psycopg.Connection)
    try:
        conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
    except psycopg.errors.DuplicateDatabase:
        return  # another session made it meanwhile
    with psycopg.connect(with_database(server_url, TEMPLATE), autocommit=True) as template:
        template.execute("CREATE EXTENSION IF NOT EXISTS vector")


def drop_database(server_url: str, url: str) -> None:
    """Drop the database ``url`` names, closing whatever is still connected to it."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The session's PostgreSQL-with-pgvector URL; skips (with the reason) if none."""
    found = find_server()
    if isinstance(found, str):
        pytest.skip(f"PostgreSQL tests skipped: {found}")
    yield found.url


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh database (with the vector extension) for one test; dropped afterwards."""
    url = create_database(pg_server)
    yield url
    drop_database(pg_server, url)


@pytest.fixture(params=BACKENDS)
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty library URL: ``sqlite:///...`` in tmp_path, then a Postgres database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'library.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def library_db(storage_url: str) -> Iterator[SqlDatabase]:
    """A fresh library database of each backend."""
    db = open_database(storage_url)
    yield db
    db.close()


@pytest.fixture(params=BACKENDS)
def both_backends(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The backend of this run; on ``postgres``, ``PAPERMIND_STORAGE__URL`` points at it."""
    if request.param == "postgres":
        monkeypatch.setenv("PAPERMIND_STORAGE__URL", str(request.getfixturevalue("pg_url")))
        # jobs run in the app's process here; tests/api/test_jobs_queue.py runs them on workers
        monkeypatch.setenv("PAPERMIND_JOBS__RUNNER", "in_process")
    return str(request.param)
