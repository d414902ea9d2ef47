"""Temporary files of a process killed during `add` are removed when the library opens."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from papermind.db import Database
from papermind.library.file_store import HOST, FileStore
from papermind.library.papers import PaperRepository


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temp_files_of_a_dead_process_are_swept_at_once(tmp_path: Path) -> None:
    files = tmp_path / "files"
    files.mkdir()
    killed = files / f".tmp-{_dead_pid()}-a1b2c3d4e5f6-{'0' * 64}.pdf"  # fresh, writer gone
    ours = files / f".tmp-{os.getpid()}-a1b2c3d4e5f6-{'1' * 64}.pdf"  # a live writer's
    killed.write_bytes(b"half a file")
    ours.write_bytes(b"being written")
    PaperRepository(Database(tmp_path / "lib.sqlite3"), files)
    assert not killed.exists()
    assert ours.exists()


def test_temp_files_written_on_another_machine_are_judged_by_age(tmp_path: Path) -> None:
    files = tmp_path / "files"
    files.mkdir()
    here = files / f".tmp-{_dead_pid()}@{HOST}-a1b2c3d4e5f6-{'2' * 64}.pdf"
    there = files / f".tmp-{_dead_pid()}@0123456789-a1b2c3d4e5f6-{'3' * 64}.pdf"
    here.write_bytes(b"half a file")
    there.write_bytes(b"another machine is writing this")
    assert FileStore(files).sweep_stale() == 1
    assert not here.exists() and there.exists()
    assert FileStore(files).sweep_stale(older_than_s=-1) == 1


def test_staged_names_carry_the_writer_pid(tmp_path: Path) -> None:
    staged = FileStore(tmp_path).stage("x.pdf", b"data")
    assert staged.temp.name.startswith(f".tmp-{os.getpid()}@{HOST}-")
    staged.discard()
