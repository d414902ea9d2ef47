"""`--help` command lists: every summary is whole and wrapped only where the column is full."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer.main

from papermind.cli.app import app
from tests.support.cli import CliRunner

ROOT: Any = typer.main.get_command(app)
GROUPS: list[list[str]] = [[]] + [[name] for name, cmd in sorted(ROOT.commands.items()) if getattr(cmd, "commands", None)]
ROW = re.compile(r"^│ (\S+)?\s+(.*?)\s*│$")


def command_rows(help_text: str) -> dict[str, list[str]]:
    """{command: its summary's lines} from the 'Commands' panel of a rich help page."""
    panel = help_text.split("─ Commands ", 1)[1].split("╰", 1)[0]
    rows: dict[str, list[str]] = {}
    name = ""
    for line in panel.splitlines()[1:]:
        match = ROW.match(line.rstrip())
        if not match:
            continue
        if match.group(1):
            name = match.group(1)
            rows[name] = []
        rows[name].append(match.group(2))
    return rows


def summary(command: Any) -> str:
    return " ".join((command.help or "").strip().split("\n\n")[0].split())


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: " ".join(g) or "papermind")
@pytest.mark.parametrize("columns", ["80", "100", "140"])
def test_command_summaries_are_whole_and_not_broken_early(
        group: list[str], columns: str, cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    result = cli(*group, "--help")
    assert result.code == 0
    parent = ROOT.commands[group[0]] if group else ROOT
    panel_width = max(len(line.rstrip()) for line in result.out.splitlines())
    rows = command_rows(result.out)
    assert set(rows) == set(parent.commands)
    for name, lines in rows.items():
        assert " ".join(lines) == summary(parent.commands[name]), f"`{name}` summary is not whole"
        start = next(line.index(lines[0]) for line in result.out.splitlines()
                     if line.startswith(f"│ {name} "))
        width = panel_width - start - 2  # the column ends one space before the right border
        for line, following in zip(lines, lines[1:], strict=False):
            room = width - len(line) - 1
            assert len(following.split()[0]) > room, (
                f"`{name}` summary breaks after {line!r} though {following.split()[0]!r} fits: "
                "a line break in its docstring's first paragraph?")
