"""A library on an almost full file system (a 4 MiB tmpfs): `add` and `reindex` fail with one
line naming the cause, exit 1, leave nothing half-written, and the library still lists,
searches and (once there is room) removes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.pdf_factory import paper_pdf
from tests.support.tiny_fs import fill, tiny_tmpfs

SMALL_MD = b"# Storage engines\n\nLog-structured merge trees batch writes in memory.\n"


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    with tiny_tmpfs(tmp_path / "tiny") as mount:
        yield mount


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PAPERMIND_HOME": str(home), "PAPERMIND_SEARCH__EMBEDDER": "none"}
    return subprocess.run([sys.executable, "-m", "papermind", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def _one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.returncode, done.stdout[-1000:], done.stderr[-3000:])
    assert "Traceback" not in done.stderr, done.stderr
    lines = [ln for ln in done.stderr.strip().splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_add_on_a_full_disk_fails_in_one_line_and_the_library_stays_usable(
        tiny_fs: Path, tmp_path: Path) -> None:
    home = tiny_fs / "home"
    first = tmp_path / "first.md"
    first.write_bytes(SMALL_MD)
    assert _cli(home, "add", str(first)).returncode == 0
    pdf = paper_pdf(tmp_path / "paper.pdf", "Write Amplification in Practice")
    assert isinstance(pdf, Path)
    filler = fill(tiny_fs)

    line = _one_line_error(_cli(home, "add", str(pdf)))
    assert f"no space left on the device at {home}" in line, line
    assert "could not be read" not in line  # the file is not blamed
    assert not [p for p in (home / "files").iterdir() if p.name.startswith(".tmp-")]

    listed = _cli(home, "list")
    assert listed.returncode == 0 and "Storage engines" in listed.stdout
    assert "Write Amplification" not in listed.stdout
    found = _cli(home, "search", "merge trees batch writes", "--mode", "bm25")
    assert found.returncode == 0 and "Log-structured" in found.stdout, found.stderr
    _one_line_error(_cli(home, "reindex"))

    filler.unlink()
    assert _cli(home, "add", str(pdf)).returncode == 0
    listed = _cli(home, "list", "--json")
    assert listed.returncode == 0 and "Write Amplification" in listed.stdout
    paper_id = json.loads(listed.stdout)[0]["id"]
    assert _cli(home, "remove", paper_id).returncode == 0
    assert "Write Amplification" not in _cli(home, "list").stdout
