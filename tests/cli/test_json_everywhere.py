"""`--json` on every command, and a command that writes nothing says why."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import typer.main

from papermind.cli.app import app
from papermind.services.logs import PlainFormatter, wants_json_logs
from tests.support.cli import CliRunner

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"


ROOT = typer.main.get_command(app)
CTX = type(ROOT).context_class(ROOT)


def _leaves(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if hasattr(command, "list_commands"):  # a group (typer may bring its own click)
        return [leaf for name in command.list_commands(CTX)
                for leaf in _leaves(command.get_command(CTX, name), (*path, name))]
    return [path]


def _command(path: tuple[str, ...]) -> Any:
    command: Any = ROOT
    for name in path:
        found = command.get_command(CTX, name)
        assert found is not None
        command = found
    return command


def test_every_command_takes_json() -> None:
    leaves = _leaves(ROOT)
    assert ("export",) in leaves and ("serve",) in leaves and ("eval", "compare") in leaves
    missing = [" ".join(p) for p in leaves
               if "--json" not in {o for param in _command(p).params for o in getattr(param, "opts", [])}]
    assert missing == []


def test_export_json_and_an_empty_export_says_why(cli: CliRunner, tmp_path: Path) -> None:
    empty = cli("export", "--json")
    assert empty.code == 0 and "nothing to export: the library is empty" in empty.err
    assert empty.json()["count"] == 0
    if EXAMPLE.exists():
        assert cli("add", EXAMPLE).code == 0
        full = cli("export", "--json")
        assert full.json()["count"] == 1 and full.json()["text"].startswith("@")
        paper_id = cli("list", "--json").json()[0]["id"]
        report = tmp_path / "report.json"
        report.write_text(json.dumps({"paper_id": paper_id, "comments": []}))
        cited = cli("--json", "export", "--report", report)
        assert cited.code == 0 and cited.json()["count"] == 0
        assert "cites no bibliography entry that grounding resolved" in cited.err


def test_server_logs_are_plain_in_a_terminal_and_json_otherwise() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert wants_json_logs(False, Tty()) is False
    assert wants_json_logs(True, Tty()) is True
    assert wants_json_logs(False, io.StringIO()) is True
    record = logging.makeLogRecord({"msg": "job started", "levelname": "INFO", "job_id": "ab12"})
    line = PlainFormatter().format(record)
    assert "job started" in line and "job_id=ab12" in line and not line.startswith("{")
