"""The PostgreSQL test fixture: a fresh database with pgvector per test, on both backends."""

from __future__ import annotations

import psycopg
import pytest

from tests.support.postgres import with_database


def test_each_test_gets_an_empty_database_with_pgvector(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'"
                            ).fetchone() is not None
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
                              ).fetchone()
        assert tables == (0,)
        conn.execute("CREATE TABLE t (v vector(3))")
        conn.execute("INSERT INTO t VALUES ('[1,0,0]'), ('[0,1,0]')")
        nearest = conn.execute("SELECT v::text FROM t ORDER BY v <=> '[0.9,0.1,0]' LIMIT 1"
                               ).fetchone()
        assert nearest == ("[1,0,0]",)


def test_storage_url_names_each_backend(storage_url: str, request: pytest.FixtureRequest) -> None:
    backend = request.node.callspec.params["storage_url"]
    assert storage_url.startswith({"sqlite": "sqlite:///", "postgres": "postgresql://"}[backend])


def test_with_database_keeps_the_socket_query() -> None:
    url = with_database("postgresql://postgres:@/postgres?host=/tmp/x", "lib")
    assert url == "postgresql://postgres:@/lib?host=/tmp/x"
