"""PaperRepository: storage keyed by content hash, all-or-nothing add and remove."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path

import pytest

from papermind.db import Database, SqlDatabase
from papermind.domain import Line, Page, Paper
from papermind.errors import ConflictError, InputError, NotFoundError
from papermind.library.file_store import StagedFile
from papermind.library.papers import PaperRepository


def make(text: str, *, title: str = "", source_type: str = "txt") -> tuple[Paper, bytes]:
    data = text.encode()
    paper = Paper(id=hashlib.sha256(data).hexdigest(), source_name=f"x.{source_type}",
                  source_type=source_type, title=title or text.splitlines()[0], year=2020,
                  authors=["Ada Lovelace", "Alan Turing"],
                  pages=[Page(number=1, lines=[Line(page=1, n=1, text=text)])])
    return paper, data


@pytest.fixture
def repo(library_db: SqlDatabase, tmp_path: Path) -> PaperRepository:
    """A repository on each backend (SQLite, PostgreSQL): the same tests must pass on both."""
    return PaperRepository(library_db, tmp_path / "files")


def stored_files(repo: PaperRepository) -> list[str]:
    root = repo.files.root
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_add_stores_row_json_and_original_file(repo: PaperRepository) -> None:
    paper, data = make("Attention is all you need\nbody")
    assert repo.add(paper, data) == "added"
    assert repo.get(paper.id) == paper
    record = repo.record(paper.id)
    assert (record.title, record.year, record.pages, record.source_type) == (
        "Attention is all you need", 2020, 1, "txt")
    assert record.authors == ["Ada Lovelace", "Alan Turing"]
    assert record.file == repo.files.root / f"{paper.id}.txt"
    assert record.file.read_bytes() == data
    assert record.size_bytes == len(data)
    assert stored_files(repo) == [f"{paper.id}.txt"]


def test_add_existing_id_is_a_no_op(repo: PaperRepository) -> None:
    paper, data = make("same")
    calls: list[str] = []
    assert repo.add(paper, data, on_stored=lambda p: calls.append(p.id)) == "added"
    first = repo.record(paper.id)
    assert repo.add(paper, data, on_stored=lambda p: calls.append(p.id)) == "exists"
    assert calls == [paper.id]
    assert repo.count() == 1
    assert repo.record(paper.id).added_at == first.added_at


def test_failing_hook_leaves_no_row_and_no_file(repo: PaperRepository) -> None:
    paper, data = make("will fail to index")

    def explode(_: Paper) -> None:
        raise RuntimeError("index is broken")

    with pytest.raises(RuntimeError, match="index is broken"):
        repo.add(paper, data, on_stored=explode)
    assert repo.count() == 0
    assert not repo.exists(paper.id)
    assert stored_files(repo) == []


def test_hook_writes_join_the_same_transaction(repo: PaperRepository) -> None:
    repo.db.execute("CREATE TABLE side(id TEXT)")
    paper, data = make("joined")

    def write_then_fail(p: Paper) -> None:
        with repo.db.transaction() as conn:
            conn.execute("INSERT INTO side VALUES (?)", (p.id,))
        raise RuntimeError("late failure")

    with pytest.raises(RuntimeError):
        repo.add(paper, data, on_stored=write_then_fail)
    assert repo.db.query("SELECT COUNT(*) AS n FROM side")[0]["n"] == 0
    assert repo.count() == 0


def test_failed_rename_rolls_back_the_row(repo: PaperRepository,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    paper, data = make("disk full")

    def broken_commit(self: StagedFile) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(StagedFile, "commit", broken_commit)
    with pytest.raises(OSError):
        repo.add(paper, data)
    assert repo.count() == 0
    assert stored_files(repo) == []


def test_remove_deletes_row_and_file(repo: PaperRepository) -> None:
    paper, data = make("to remove")
    other, other_data = make("to keep")
    repo.add(paper, data)
    repo.add(other, other_data)
    removed: list[str] = []
    record = repo.remove(paper.id, on_removed=removed.append)
    assert record.id == paper.id and removed == [paper.id]
    assert not repo.exists(paper.id)
    assert stored_files(repo) == [f"{other.id}.txt"]
    with pytest.raises(NotFoundError):
        repo.get(paper.id)
    with pytest.raises(NotFoundError):
        repo.remove(paper.id)


def test_failing_remove_hook_keeps_row_and_file(repo: PaperRepository) -> None:
    paper, data = make("stays")
    repo.add(paper, data)

    def explode(_: str) -> None:
        raise RuntimeError("index unavailable")

    with pytest.raises(RuntimeError):
        repo.remove(paper.id, on_removed=explode)
    assert repo.exists(paper.id)
    assert stored_files(repo) == [f"{paper.id}.txt"]
    assert repo.record(paper.id).file.read_bytes() == data


def test_resolve_full_id_unique_prefix_and_errors(repo: PaperRepository) -> None:
    base, data = make("prefixes")
    for paper_id in ("ab" + "0" * 62, "ab" + "1" * 62, "cd" + "2" * 62):
        repo.add(base.model_copy(update={"id": paper_id}), data)
    assert repo.resolve("cd" + "2" * 62) == "cd" + "2" * 62
    assert repo.resolve("c") == "cd" + "2" * 62
    assert repo.resolve(" AB1 ") == "ab" + "1" * 62
    with pytest.raises(InputError, match="matches several papers"):
        repo.resolve("ab")
    with pytest.raises(NotFoundError):
        repo.resolve("ef")
    with pytest.raises(NotFoundError):
        repo.resolve("zz-not-hex")
    with pytest.raises(InputError):
        repo.resolve("  ")


def test_list_is_newest_first_with_limit(repo: PaperRepository) -> None:
    ids = []
    for i in range(3):
        paper, data = make(f"paper number {i}")
        repo.add(paper, data)
        ids.append(paper.id)
    assert [r.id for r in repo.list()] == ids[::-1]
    assert [r.id for r in repo.list(limit=2)] == ids[::-1][:2]
    assert [r.id for r in repo.list(limit=2, offset=2)] == [ids[0]]


def test_reopening_keeps_papers_and_migrations_run_once(tmp_path: Path) -> None:
    db = Database(tmp_path / "lib.sqlite3")
    first = PaperRepository(db, tmp_path / "files")
    paper, data = make("persist me")
    first.add(paper, data)
    db.close()
    db2 = Database(tmp_path / "lib.sqlite3")
    again = PaperRepository(db2, tmp_path / "files")
    assert again.get(paper.id) == paper
    assert db2.version("papers") == 1


def test_stale_temp_files_are_swept_on_open(tmp_path: Path) -> None:
    files = tmp_path / "files"
    files.mkdir()
    stale, fresh = files / ".tmp-aaaa-x.pdf", files / ".tmp-bbbb-y.pdf"
    stale.write_bytes(b"old")
    fresh.write_bytes(b"new")
    old = time.time() - 7200
    os.utime(stale, (old, old))
    PaperRepository(Database(tmp_path / "lib.sqlite3"), files)
    assert not stale.exists() and fresh.exists()


def test_rejects_ids_that_are_not_sha256(repo: PaperRepository) -> None:
    paper, data = make("bad id")
    with pytest.raises(ValueError):
        repo.add(paper.model_copy(update={"id": "../../etc/passwd"}), data)
    assert repo.count() == 0
    assert stored_files(repo) == []


def test_a_locked_library_is_a_clear_conflict(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite3"
    repo = PaperRepository(Database(path), tmp_path / "files")
    other = sqlite3.connect(path, timeout=0)
    other.execute("BEGIN IMMEDIATE")  # another process is writing
    repo.db.conn.execute("PRAGMA busy_timeout = 50")
    paper, data = make("blocked")
    try:
        with pytest.raises(ConflictError, match="library is busy"):
            repo.add(paper, data)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert stored_files(repo) == []
    assert repo.add(paper, data) == "added"


@pytest.mark.parametrize(("source", "guessed"), [("first_page", False), ("heading", False),
                                                 ("first_line", True), ("file_name", True)])
def test_records_say_whether_the_title_is_a_guess(repo: PaperRepository, source: str,
                                                  guessed: bool) -> None:
    paper, data = make(f"A title from {source}\nbody")
    repo.add(paper.model_copy(update={"title_source": source}), data)
    assert repo.record(paper.id).title_guessed is guessed
    assert [r.title_guessed for r in repo.list()] == [guessed]


def test_a_title_and_authors_from_a_record_replace_the_parse_and_its_markers(
        repo: PaperRepository) -> None:
    paper, data = make("Parsed title\nbody")
    repo.add(paper.model_copy(update={"title_source": "first_line",
                                      "author_marks": [["1"], ["2", "†"]]}), data)
    updated = repo.update_metadata(paper.id, title="The Record's Title",
                                   authors=["Ada King", "Alan Turing"])
    assert updated.title_source == "metadata" and updated.author_marks == []
    assert repo.record(paper.id).title_guessed is False
    same = repo.update_metadata(paper.id, title="The Record's Title", year=2021)
    assert same.title_source == "metadata"
