"""CLI test helpers: the ``cli`` fixture (runs the real console entry point in-process), its
result, and the library state a run leaves."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from papermind.cli.app import main


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


CliRunner = Callable[..., CliResult]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        home: Path) -> CliRunner:
    """``cli("add", "x.pdf")`` runs ``papermind add x.pdf`` through ``main()``."""
    monkeypatch.setenv("COLUMNS", "200")
    # the real indexing path, with the fast hashing embedder instead of loading MiniLM per call
    monkeypatch.setenv("PAPERMIND_SEARCH__EMBEDDER", "hashing")

    def run(*args: str | Path) -> CliResult:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["papermind", *map(str, args)])
        try:
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


def library_state(home: Path) -> tuple[list[str], list[str]]:
    """(paper ids in the database, every file under <home>/files, temp files included)."""
    ids: list[str] = []
    db = home / "library.sqlite3"
    if db.exists():
        with closing(sqlite3.connect(db)) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            if "papers" in tables:
                ids = sorted(r[0] for r in conn.execute("SELECT id FROM papers"))
    files_dir = home / "files"
    files = sorted(p.name for p in files_dir.iterdir()) if files_dir.is_dir() else []
    return ids, files
