"""`papermind serve` on a library it cannot open or create (a full disk) says so in one
line and exits, instead of printing uvicorn's startup traceback."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from papermind.library.papers import PaperRepository
from tests.support.cli import CliRunner, cli

__all__ = ["cli"]


def test_serve_on_a_full_new_library_is_one_line(
        cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: served.append(app))

    def full(self: PaperRepository) -> int:
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(PaperRepository, "count", full)
    result = cli("serve", "--port", "1")
    assert result.code == 1 and served == []
    assert "no space left" in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) <= 2, result.err
