"""Bad files: one clear message, a non-zero exit, and the library exactly as before."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli import pdf_factory as make
from tests.support.cli import CliRunner, library_state

BAD_FILES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "junk.pdf": (make.junk_pdf, r"neither a PDF|not a PDF|binary"),
    "empty.pdf": (make.empty_pdf, r"empty"),
    "truncated.pdf": (make.truncated_pdf, r"damaged|truncated|corrupt|broken|cannot"),
    "encrypted.pdf": (make.encrypted_pdf, r"encrypted|password"),
    "image-only.pdf": (make.image_only_pdf, r"no text|image|scan"),
}


@pytest.fixture
def stocked(cli: CliRunner, home: Path, tmp_path: Path) -> tuple[list[str], list[str]]:
    """A library holding one good paper; returns its state."""
    good = make.paper_pdf(tmp_path / "good.pdf", "A Perfectly Good Paper")
    result = cli("add", good)
    assert result.code == 0, result.err
    state = library_state(home)
    assert len(state[0]) == 1 and len(state[1]) == 1
    return state


def bad_file(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / "bad"
    folder.mkdir(exist_ok=True)
    return BAD_FILES[name][0](folder / name)


def assert_one_clear_line(stderr: str, name: str) -> None:
    """One error line (progress lines of a scan's OCR pages aside)."""
    lines = [line for line in stderr.strip().splitlines()
             if not re.fullmatch(rf"{re.escape(name)}: OCR page \d+/\d+", line)]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and "Traceback" not in stderr
    assert re.search(BAD_FILES[name][1], lines[0], re.IGNORECASE), lines[0]


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_add_bad_file(name: str, cli: CliRunner, home: Path, tmp_path: Path,
                      stocked: tuple[list[str], list[str]]) -> None:
    result = cli("add", bad_file(name, tmp_path))
    assert result.code == 2
    assert_one_clear_line(result.err, name)
    assert library_state(home) == stocked


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_parse_bad_file(name: str, cli: CliRunner, home: Path, tmp_path: Path) -> None:
    result = cli("parse", bad_file(name, tmp_path), "--json")
    assert result.code == 2 and result.out == ""
    assert_one_clear_line(result.err, name)
    assert not home.exists(), "parse must not create a library"


def test_folder_of_bad_files_with_one_good(cli: CliRunner, home: Path, tmp_path: Path,
                                           stocked: tuple[list[str], list[str]]) -> None:
    for name in BAD_FILES:
        bad_file(name, tmp_path)
    make.paper_pdf(tmp_path / "bad" / "fine.pdf", "The Only Readable One")
    result = cli("add", tmp_path / "bad", "--json")
    assert result.code == 2
    rows = {Path(r["path"]).name: r for r in result.json()}
    assert rows["fine.pdf"]["status"] == "added"
    assert {n for n, r in rows.items() if r["status"] == "failed"} == set(BAD_FILES)
    assert all(rows[n]["reason"] for n in BAD_FILES)
    assert "5 of 6 files failed" in result.err
    ids, files = library_state(home)
    assert len(ids) == len(files) == 2 and set(stocked[0]) < set(ids)


def test_installed_entry_point_reports_errors(home: Path, tmp_path: Path) -> None:
    """The console script itself: exit code and one line, no traceback."""
    script = Path(sys.executable).parent / "papermind"
    if not script.exists():
        pytest.skip(f"console script not installed next to {sys.executable}")
    junk = bad_file("junk.pdf", tmp_path)
    done = subprocess.run([str(script), "--home", str(home), "add", str(junk)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert_one_clear_line(done.stderr, "junk.pdf")
    assert library_state(home) == ([], [])


def test_add_of_one_missing_file_names_it(cli: CliRunner) -> None:
    result = cli("add", "nope.pdf")
    assert result.code == 2 and "nope.pdf: no such file or folder" in result.err
