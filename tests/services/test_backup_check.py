"""Restore verifies a backup before touching anything: damaged, foreign, newer, crafted or
linked backups are refused with the live library intact; a swap that fails puts it back."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from papermind.config import Settings
from papermind.errors import InputError
from papermind.library.file_store import FileStore
from papermind.services import backup as backup_module
from papermind.services.backup import backup, restore
from tests.services.test_backup import paper
from tests.support.cli import CliRunner, cli
from tests.support.containers import hashing_container

__all__ = ["cli"]


@pytest.fixture
def made(tmp_path: Path) -> Iterator[tuple[Settings, Path]]:
    """(settings of a live library holding paper 1, a fresh backup of a library with paper 0)."""
    with hashing_container(tmp_path / "source") as box:
        box.library.add_file(paper(tmp_path, 0))
        backup(box.settings, tmp_path / "b")
    with hashing_container(tmp_path / "live") as live:
        live.library.add_file(paper(tmp_path, 1))
        settings = live.settings
    yield settings, tmp_path / "b"


def _sql(db: Path, statement: str) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute(statement)
        conn.commit()


def _live_titles(settings: Settings) -> list[str]:
    with hashing_container(settings.home_dir) as box:
        assert all(box.papers.file_path(r.id).is_file() for r in box.papers.list())
        return [r.title for r in box.papers.list()]


def _corrupt(b: Path) -> None:
    db = b / "library.sqlite3"
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xa5" * 4096  # a page of garbage past the header
    db.write_bytes(bytes(data))


def _crafted(name: str) -> Callable[[Path], None]:
    return lambda b: _sql(b / "library.sqlite3", f"UPDATE papers SET file_name = '{name}'")


def _link_in(folder: str) -> Callable[[Path], None]:
    def make(b: Path) -> None:
        (b / folder).mkdir(exist_ok=True)
        (b / folder / "x.txt").symlink_to("/etc/hostname")
    return make


def _foreign(b: Path) -> None:
    (b / "library.sqlite3").unlink()
    _sql(b / "library.sqlite3", "CREATE TABLE notes (body TEXT)")


@pytest.mark.parametrize(("spoil", "said"), [
    (_corrupt, "damaged database"),
    (lambda b: (b / "library.sqlite3").write_bytes(b"not a database at all" * 100),
     "not an SQLite database"),
    (_crafted("../../../etc/passwd"), "not a plain file name"),
    (_crafted("/etc/passwd"), "not a plain file name"),
    (_link_in("files"), "is a link or a special file"),
    (_link_in("reports"), "is a link or a special file"),
    (_foreign, "not a PaperMind library"),
    (lambda b: _sql(b / "library.sqlite3",
                    "UPDATE schema_migrations SET version = 999 WHERE component = 'papers'"),
     "written by a newer PaperMind"),
    (lambda b: (b / "papermind-backup.json").write_text("{oops"), "unreadable"),
    (lambda b: next((b / "files").iterdir()).unlink(), "missing"),
])
def test_a_bad_backup_is_refused_and_the_library_is_intact(
        made: tuple[Settings, Path], spoil: Callable[[Path], None], said: str) -> None:
    settings, b = made
    spoil(b)
    before = sorted(p.name for p in settings.home_dir.iterdir())
    with pytest.raises(InputError, match=said):
        restore(settings, b, force=True)
    assert sorted(p.name for p in settings.home_dir.iterdir()) == before
    assert _live_titles(settings) == ["Study 1 of zyxbravoq"]


def test_a_swap_that_fails_puts_the_old_library_back(
        made: tuple[Settings, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    settings, b = made
    checked: list[Path] = []

    def fails_after_swap(path: Path) -> None:
        checked.append(path)
        if path == settings.db_path:
            raise InputError("the new library does not open")
    monkeypatch.setattr(backup_module, "check_database", fails_after_swap)
    with pytest.raises(InputError, match="does not open"):
        restore(settings, b, force=True)
    assert settings.db_path in checked
    assert not [p for p in settings.home_dir.iterdir() if "restore-" in p.name]
    assert _live_titles(settings) == ["Study 1 of zyxbravoq"]


def test_a_good_backup_replaces_the_library(made: tuple[Settings, Path]) -> None:
    settings, b = made
    assert restore(settings, b, force=True).papers == 1
    assert _live_titles(settings) == ["Study 0 of zyxalphaq"]
    assert not [p for p in settings.home_dir.iterdir() if "restore-" in p.name]


def test_cli_restore_of_a_damaged_backup_is_one_line(
        cli: CliRunner, made: tuple[Settings, Path]) -> None:
    settings, b = made
    _corrupt(b)
    result = cli("--home", settings.home_dir, "restore", b, "--force")
    assert result.code == 2 and "damaged database" in result.err
    assert "Traceback" not in result.err


def test_the_file_store_never_leaves_its_folder(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "files")
    for name in ("../../etc/passwd", "/etc/passwd", "a/../../b"):
        assert store.path(name).parent == tmp_path / "files"
