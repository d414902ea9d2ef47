"""`papermind backup` while papers are being added restores to a library that lists and
searches the same papers; restore refuses to overwrite a library and a non-backup folder."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from papermind.config import Settings
from papermind.errors import ConflictError, InputError
from papermind.services.backup import MANIFEST, backup, restore
from tests.support.cli import CliRunner, cli
from tests.support.containers import hashing_container

__all__ = ["cli"]
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"]


def paper(folder: Path, n: int) -> Path:
    path = folder / f"paper{n}.md"
    path.write_text(f"# Study {n} of zyx{WORDS[n]}q\n\nAbstract\n\nWe measure the zyx{WORDS[n]}q "
                    f"effect in setting {n}.\n\n## Results\n\nThe zyx{WORDS[n]}q rate is {n}%.\n",
                    encoding="utf-8")
    return path


def test_a_backup_taken_while_adds_run_restores_the_same_papers(tmp_path: Path) -> None:
    source = tmp_path / "papers"
    source.mkdir()
    with hashing_container(tmp_path / "home") as box:
        for n in range(4):
            assert box.library.add_file(paper(source, n)).status == "added"
        adding = threading.Thread(target=lambda: [box.library.add_file(paper(source, n))
                                                  for n in range(4, len(WORDS))])
        adding.start()
        while box.papers.count() < 6:  # the backup starts while the adds are under way
            time.sleep(0.01)
        summary = backup(box.settings, tmp_path / "backup")
        still_adding = adding.is_alive()
        adding.join()
        assert box.papers.count() == len(WORDS)
    manifest = json.loads((tmp_path / "backup" / MANIFEST).read_text())
    assert still_adding and 6 <= summary.papers == manifest["papers"] == summary.files <= len(WORDS)
    with hashing_container(tmp_path / "restored") as fresh:
        assert restore(fresh.settings, tmp_path / "backup").papers == summary.papers
    with hashing_container(tmp_path / "restored") as again:
        listed = again.papers.list()
        assert len(listed) == summary.papers
        for record in listed:
            word = next(w for w in WORDS if f"zyx{w}q" in record.title)
            hits = again.search.search(f"zyx{word}q", mode="bm25", k=3)
            assert hits and hits[0].paper_id == record.id
            assert again.papers.file_path(record.id).is_file()


def test_restore_refuses_a_library_in_place_and_a_folder_that_is_no_backup(
        tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    with pytest.raises(InputError, match="not a PaperMind backup"):
        restore(settings, tmp_path)
    with hashing_container(tmp_path / "home") as box:
        box.library.add_file(paper(tmp_path, 0))
        backup(box.settings, tmp_path / "b1")
        with pytest.raises(ConflictError, match="exists and is not an empty folder"):
            backup(box.settings, tmp_path / "b1")
        with pytest.raises(ConflictError, match="a library is already here"):
            restore(box.settings, tmp_path / "b1")


def test_cli_backup_and_restore(cli: CliRunner, tmp_path: Path) -> None:
    assert cli("add", paper(tmp_path, 1)).code == 0
    done = cli("backup", tmp_path / "b", "--json")
    assert done.code == 0 and done.json()["papers"] == 1
    restored = cli("--home", tmp_path / "other", "restore", tmp_path / "b")
    assert restored.code == 0 and "restored 1 papers" in restored.out
    assert cli("--home", tmp_path / "other", "restore", tmp_path / "b").code != 0


def test_restore_force_replaces_a_used_library_and_its_indexes(tmp_path: Path) -> None:
    with hashing_container(tmp_path / "home") as box:
        box.library.add_file(paper(tmp_path, 0))
        backup(box.settings, tmp_path / "b")
    with hashing_container(tmp_path / "other") as other:
        other.library.add_file(paper(tmp_path, 5))
        assert other.search.search("zyxfoxtrotq", mode="bm25")  # its indexes exist now
        settings = other.settings
    restore(settings, tmp_path / "b", force=True)
    with hashing_container(tmp_path / "other") as again:
        assert [r.title for r in again.papers.list()] == ["Study 0 of zyxalphaq"]
        assert again.search.search("zyxfoxtrotq", mode="bm25") == []
        hits = again.search.search("zyxalphaq", mode="bm25")
        assert hits and again.search.search("zyxalphaq", mode="hybrid")
