"""`remove` frees space on a full disk: when the database cannot write its delete, the
paper's original file (and cached pages) is freed first and the remove tried once more."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from papermind.disk_writes import storage_fault
from papermind.errors import StorageError
from papermind.library.papers import PaperRepository
from tests.services.test_backup import paper
from tests.support.containers import hashing_container


def test_remove_on_a_full_disk_frees_the_file_then_succeeds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = PaperRepository.remove

    def full_until_the_file_is_gone(self: PaperRepository, paper_id: str, **kw: Any) -> Any:
        if self.record(paper_id).file.exists():  # the disk is full while the file is there
            raise sqlite3.OperationalError("database or disk is full")
        return original(self, paper_id, **kw)
    monkeypatch.setattr(PaperRepository, "remove", full_until_the_file_is_gone)
    with hashing_container(tmp_path / "home") as box:
        added = box.library.add_file(paper(tmp_path, 0))
        assert added.paper_id
        stored = box.papers.file_path(added.paper_id)
        assert box.remove_paper(added.paper_id[:10]).id == added.paper_id
        assert not stored.exists() and box.papers.count() == 0


def test_a_disk_that_stays_full_is_one_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def always_full(self: PaperRepository, paper_id: str, **_: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")
    with hashing_container(tmp_path / "home") as box:
        added = box.library.add_file(paper(tmp_path, 0))
        assert added.paper_id
        monkeypatch.setattr(PaperRepository, "remove", always_full)
        with pytest.raises((StorageError, sqlite3.OperationalError)) as err:
            box.remove_paper(added.paper_id)
        fault = storage_fault(err.value)
        assert fault is not None and "no space left" in fault.message
        assert box.papers.count() == 1  # the record stays; only its file was freed
