"""LibraryService: batch add over files and folders, indexer in the same unit of work."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from papermind.db import SqlDatabase
from papermind.domain import Paper
from papermind.errors import IngestError, NotFoundError
from papermind.library.papers import PaperRepository
from papermind.services.library import AddResult, FileParser, LibraryService, collect_files
from tests.services.paper_fakes import parse_text


class RecordingIndexer:
    """Keeps indexed ids in memory; can be told to fail."""

    def __init__(self, fail_on: str | None = None, fail_remove: bool = False) -> None:
        self.indexed: list[str] = []
        self.removed: list[str] = []
        self.fail_on = fail_on
        self.fail_remove = fail_remove

    def index_paper(self, paper: Paper) -> None:
        if self.fail_on and self.fail_on in paper.title:
            raise RuntimeError("embedding model crashed")
        self.indexed.append(paper.id)

    def remove_paper(self, paper_id: str) -> None:
        if self.fail_remove:
            raise RuntimeError("index locked")
        self.removed.append(paper_id)


class CountingParser:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, data: bytes, name: str) -> Paper:
        self.calls.append(name)
        if b"CRASH" in data:
            raise ZeroDivisionError("parser bug")
        return parse_text(data, name)


@pytest.fixture
def repo(library_db: SqlDatabase, tmp_path: Path) -> PaperRepository:
    """On each backend (SQLite, PostgreSQL)."""
    return PaperRepository(library_db, tmp_path / "home" / "files")


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def files_in(repo: PaperRepository) -> list[str]:
    return sorted(p.name for p in repo.files.root.iterdir()) if repo.files.root.exists() else []


def test_add_file_then_again_reports_exists_without_parsing(repo: PaperRepository,
                                                            tmp_path: Path) -> None:
    parser = CountingParser()
    service = LibraryService(repo, FileParser(parser))
    paper = write(tmp_path / "in" / "a.txt", "Title A\nbody")
    [first] = service.add([paper])
    assert first == AddResult(str(paper), "added", hashlib.sha256(b"Title A\nbody").hexdigest(),
                              "Title A")
    copy = write(tmp_path / "in" / "copy-of-a.md", "Title A\nbody")
    [again] = service.add([copy])
    assert (again.status, again.paper_id, again.title) == ("exists", first.paper_id, "Title A")
    assert parser.calls == ["a.txt"]
    assert repo.count() == 1


def test_folder_is_searched_recursively_for_supported_files(repo: PaperRepository,
                                                            tmp_path: Path) -> None:
    root = tmp_path / "papers"
    write(root / "one.txt", "One")
    write(root / "p10.txt", "Ten")
    write(root / "p9.txt", "Nine")
    write(root / "sub" / "deeper" / "two.MD", "Two")
    write(root / "sub" / "three.md", "Three")
    write(root / "notes.docx", "ignored")
    write(root / ".hidden.txt", "ignored")
    write(root / ".git" / "four.txt", "ignored")
    results = LibraryService(repo, FileParser(parse_text)).add([root])
    assert [Path(r.path).name for r in results] == ["one.txt", "p9.txt", "p10.txt", "three.md",
                                                    "two.MD"]
    assert [r.status for r in results] == ["added"] * 5
    assert sorted(r.title for r in repo.list()) == ["Nine", "One", "Ten", "Three", "Two"]


def test_unusable_paths_fail_alone_and_the_rest_is_stored(repo: PaperRepository,
                                                          tmp_path: Path) -> None:
    good = write(tmp_path / "good.txt", "Good paper")
    empty = write(tmp_path / "empty.txt", "")
    crash = write(tmp_path / "crash.txt", "CRASH")
    (tmp_path / "nothing-here").mkdir()
    results = LibraryService(repo, FileParser(CountingParser())).add(
        [tmp_path / "missing.pdf", tmp_path / "nothing-here", empty, good, crash, good])
    by_name = {Path(r.path).name: r for r in results}
    assert len(results) == 5  # `good` listed twice is added once
    assert by_name["missing.pdf"].reason == "no such file or folder"
    assert "no .pdf, .txt, .md files" in by_name["nothing-here"].reason
    assert by_name["empty.txt"].reason == "empty.txt is empty"
    assert "could not be read" in by_name["crash.txt"].reason
    assert "ZeroDivisionError" not in by_name["crash.txt"].reason  # no internals for users
    assert by_name["good.txt"].status == "added"
    assert [r.status for r in results].count("failed") == 4
    assert repo.count() == 1
    assert len(files_in(repo)) == 1


def test_indexer_runs_in_the_unit_of_work(repo: PaperRepository, tmp_path: Path) -> None:
    indexer = RecordingIndexer(fail_on="Broken")
    service = LibraryService(repo, FileParser(parse_text), indexer=indexer)
    ok = write(tmp_path / "ok.txt", "Fine paper")
    bad = write(tmp_path / "bad.txt", "Broken paper")
    results = service.add([ok, bad])
    assert [r.status for r in results] == ["added", "failed"]
    assert "could not be added" in results[1].reason
    assert "RuntimeError" not in results[1].reason and "crashed" not in results[1].reason
    assert indexer.indexed == [results[0].paper_id]
    assert [r.id for r in repo.list()] == [results[0].paper_id]
    assert files_in(repo) == [f"{results[0].paper_id}.txt"]


def test_remove_by_prefix_calls_indexer_and_failure_keeps_everything(
        repo: PaperRepository, tmp_path: Path) -> None:
    indexer = RecordingIndexer()
    service = LibraryService(repo, FileParser(parse_text), indexer=indexer)
    [added] = service.add([write(tmp_path / "p.txt", "Paper to remove")])
    assert added.paper_id is not None
    indexer.fail_remove = True
    with pytest.raises(RuntimeError):
        service.remove(added.paper_id[:8])
    assert repo.exists(added.paper_id) and len(files_in(repo)) == 1
    indexer.fail_remove = False
    record = service.remove(added.paper_id[:8])
    assert record.id == added.paper_id and indexer.removed == [added.paper_id]
    assert repo.count() == 0 and files_in(repo) == []
    with pytest.raises(NotFoundError):
        service.show(added.paper_id)


def test_show_and_get(repo: PaperRepository, tmp_path: Path) -> None:
    service = LibraryService(repo, FileParser(parse_text))
    [added] = service.add([write(tmp_path / "p.md", "# Shown\ntext")])
    assert added.paper_id is not None
    stored = service.show(added.paper_id[:6])
    assert stored.record.id == stored.paper.id == added.paper_id
    assert stored.paper.source_type == "md"
    assert service.get(added.paper_id) == stored.paper


def test_parse_does_not_store_and_checks_size(repo: PaperRepository, tmp_path: Path) -> None:
    service = LibraryService(repo, FileParser(parse_text, max_file_bytes=10))
    assert service.parse(write(tmp_path / "small.txt", "Tiny")).title == "Tiny"
    assert repo.count() == 0
    with pytest.raises(IngestError, match="too large"):
        service.parse(write(tmp_path / "big.txt", "x" * 11))
    with pytest.raises(IngestError, match="no such file"):
        service.parse(tmp_path / "absent.pdf")
    with pytest.raises(IngestError, match="is a folder"):
        service.parse(tmp_path)


def test_progress_hook_sees_every_file(repo: PaperRepository, tmp_path: Path) -> None:
    seen: list[tuple[str, int, int, str | None]] = []
    LibraryService(repo, FileParser(parse_text)).add(
        [write(tmp_path / "a.txt", "A"), write(tmp_path / "b.txt", "B"), tmp_path / "gone.txt"],
        on_event=lambda e: seen.append((e.stage, e.done, e.total, e.result and e.result.status)))
    assert seen == [("start", 0, 3, None), ("file", 1, 3, "failed"), ("parsing", 1, 3, None),
                    ("file", 2, 3, "added"), ("parsing", 2, 3, None), ("file", 3, 3, "added")]


def test_collect_files_drops_duplicates_through_folders(tmp_path: Path) -> None:
    paper = write(tmp_path / "d" / "x.pdf", b"%PDF-1.4")
    files, failures = collect_files([paper, tmp_path / "d", tmp_path / "d" / ".." / "d"])
    assert files == [paper] and failures == []


def test_prepare_runs_before_the_transaction_and_index_inside(repo: PaperRepository,
                                                             tmp_path: Path) -> None:
    seen: list[tuple[str, bool]] = []

    class PreparingIndexer(RecordingIndexer):
        def prepare_paper(self, paper: Paper) -> None:
            seen.append(("prepare", repo.db.conn.in_transaction))

        def index_paper(self, paper: Paper) -> None:
            seen.append(("index", repo.db.conn.in_transaction))

    service = LibraryService(repo, FileParser(parse_text), indexer=PreparingIndexer())
    paper = write(tmp_path / "p.txt", "Prepared paper")
    assert [r.status for r in service.add([paper])] == ["added"]
    assert seen == [("prepare", False), ("index", True)]
    assert [r.status for r in service.add([paper])] == ["exists"]
    assert len(seen) == 2


def test_add_bytes_like_an_upload(repo: PaperRepository) -> None:
    service = LibraryService(repo, FileParser(parse_text, max_file_bytes=100))
    [added] = [service.add_bytes(b"Uploaded paper\ntext", "upload.md")]
    assert (added.path, added.status, added.title) == ("upload.md", "added", "Uploaded paper")
    assert repo.record(str(added.paper_id)).source_name == "upload.md"
    assert service.add_bytes(b"Uploaded paper\ntext", "again.md").status == "exists"
    too_big = service.add_bytes(b"x" * 101, "big.txt")
    assert too_big.status == "failed" and "too large" in too_big.reason
    assert repo.count() == 1


def test_a_fifo_or_device_is_refused_without_reading_it(repo: PaperRepository,
                                                        tmp_path: Path) -> None:
    service = LibraryService(repo, FileParser(parse_text, max_file_bytes=10))
    os.mkfifo(tmp_path / "pipe.pdf")  # reading it would block forever
    with pytest.raises(IngestError, match="is a named pipe"):
        service.parse(tmp_path / "pipe.pdf")
    with pytest.raises(IngestError, match="is a device"):
        service.parse(Path("/dev/zero"))
    [result] = service.add([tmp_path / "pipe.pdf"])
    assert result.status == "failed" and "named pipe" in result.reason


def test_ocr_progress_of_a_file_reaches_the_add_hook(repo: PaperRepository, tmp_path: Path) -> None:
    def scanning_parser(data: bytes, name: str, on_page=None) -> Paper:
        for done in (1, 2):
            if on_page is not None:
                on_page(done, 2)
        return parse_text(data, name)

    seen: list[tuple[str, int, int]] = []
    LibraryService(repo, FileParser(scanning_parser)).add(
        [write(tmp_path / "scan.txt", "A scan")],
        on_event=lambda e: seen.append((e.stage, e.done, e.total)))
    assert [s for s in seen if s[0] == "ocr"] == [("ocr", 1, 2), ("ocr", 2, 2)]
