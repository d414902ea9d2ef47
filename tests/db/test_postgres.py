"""The PostgreSQL database handle: placeholders, rows, transactions, migrations, errors."""

from __future__ import annotations

import pytest

from papermind.db.postgres import PgDatabase, translate
from papermind.errors import ConfigError
from papermind.services.storage import open_database


def test_placeholders_become_psycopg_ones_and_percent_signs_stay_literal() -> None:
    assert translate("SELECT ? WHERE a LIKE '5%' AND b ?| ?") == \
        "SELECT %s WHERE a LIKE '5%%' AND b ?| %s"


def test_rows_read_by_position_and_name(pg_url: str) -> None:
    db = PgDatabase(pg_url)
    row = db.query("SELECT 1 AS one, 'x' AS letter")[0]
    assert (row[0], row["letter"], row.keys()) == (1, "x", ["one", "letter"])
    db.close()


def test_nested_transactions_are_savepoints_and_failures_roll_back(pg_url: str) -> None:
    db = PgDatabase(pg_url)
    db.execute("CREATE TABLE t (n INTEGER)")
    with db.transaction() as conn:
        conn.execute("INSERT INTO t VALUES (?)", (1,))
        with pytest.raises(RuntimeError), db.transaction() as inner:
            inner.execute("INSERT INTO t VALUES (?)", (2,))
            raise RuntimeError("inner fails")
    with pytest.raises(RuntimeError), db.transaction() as conn:
        conn.execute("INSERT INTO t VALUES (?)", (3,))
        raise RuntimeError("outer fails")
    assert [r[0] for r in db.query("SELECT n FROM t")] == [1]
    db.close()


def test_migrations_apply_once(pg_url: str) -> None:
    steps = ["CREATE TABLE a (x BIGINT)", "ALTER TABLE a ADD COLUMN y TEXT"]
    assert PgDatabase(pg_url).migrate("demo", steps) == 2
    again = PgDatabase(pg_url)
    assert again.migrate("demo", steps) == 2 and again.version("demo") == 2
    assert again.has_tables(["a"]) and not again.has_tables(["a", "b"])
    with pytest.raises(ValueError, match="no postgres migrations for the component 'legacy'"):
        again.migrate("legacy")


def test_the_portable_components_tables_come_from_the_backend_schema(pg_url: str) -> None:
    from papermind.db.postgres.schema import MIGRATIONS
    from papermind.db.sqlite.schema import MIGRATIONS as SQLITE

    assert MIGRATIONS.keys() == SQLITE.keys(), "every portable component on both backends"
    assert all(len(MIGRATIONS[c]) == len(SQLITE[c]) for c in SQLITE), "step N is the same change"
    db = PgDatabase(pg_url)
    assert db.migrate("papers") == 1 and db.migrate("labels") == 1
    assert db.has_tables(["papers", "paper_labels"])


def test_storage_urls_that_cannot_work_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unsupported storage.url"):
        open_database("mysql://localhost/lib")
    with pytest.raises(ConfigError, match="cannot connect"):
        open_database("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_a_server_without_pgvector_is_a_clear_error() -> None:
    local = "postgresql://postgres@127.0.0.1:5432/postgres?connect_timeout=2"
    try:
        import psycopg

        with psycopg.connect(local, autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
                            ).fetchone():
                pytest.skip("the local server has pgvector")
    except psycopg.OperationalError:
        pytest.skip("no PostgreSQL at 127.0.0.1:5432")
    with pytest.raises(ConfigError, match="pgvector"):
        PgDatabase(local)
