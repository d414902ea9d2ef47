"""TCP keepalives on every PostgreSQL connection the container opens (storage.keepalive_s)."""

from __future__ import annotations

from pathlib import Path

from papermind.config import Settings, StorageSettings
from papermind.db.postgres import with_keepalives
from papermind.services.container import Container


def test_keepalive_parameters_are_added_and_given_ones_kept() -> None:
    url = with_keepalives("postgresql://pm@db.example:5432/lib?host=/run/pg&keepalives_idle=5",
                          30)
    assert url == ("postgresql://pm@db.example:5432/lib?host=/run/pg&keepalives_idle=5"
                   "&keepalives=1&keepalives_interval=10&keepalives_count=3")
    assert with_keepalives("postgresql://h/db", 0) == "postgresql://h/db"


def test_the_container_connects_with_keepalives(pg_url: str, tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, storage=StorageSettings(url=pg_url, keepalive_s=12))
    with Container(settings) as box:
        params = box.db.conn.raw.info.get_parameters()  # type: ignore[attr-defined]
        assert (params.get("keepalives"), params.get("keepalives_idle"),
                params.get("keepalives_interval"), params.get("keepalives_count")) == \
            ("1", "12", "4", "3")
        assert box.db.query("SELECT 1")[0][0] == 1
    sqlite = Container(Settings(home=tmp_path))
    assert sqlite.storage_url == f"sqlite:///{tmp_path / 'library.sqlite3'}"
