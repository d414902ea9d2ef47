"""`--help` pages: command summaries are whole, and no text is wrapped before its line is full."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer.main

from papermind.cli.app import app
from tests.support.cli import CliRunner

ROOT: Any = typer.main.get_command(app)
GROUPS: list[list[str]] = [[]] + [[name] for name, cmd in sorted(ROOT.commands.items()) if getattr(cmd, "commands", None)]
COMMANDS = [[name] for name in sorted(ROOT.commands)] + [
    [group[0], name] for group in GROUPS[1:] for name in sorted(ROOT.commands[group[0]].commands)]
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


def assert_full_lines(lines: list[str], width: int, what: str) -> None:
    """Each line but the last of a wrapped paragraph had no room for the next line's first word."""
    for line, following in zip(lines, lines[1:], strict=False):
        room = width - len(line) - 1
        assert len(following.split()[0]) > room, (
            f"{what} breaks after {line!r} though {following.split()[0]!r} fits: "
            "a line break inside a paragraph of its docstring?")


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
        assert_full_lines(lines, width, f"`{name}` summary")


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_command_help_paragraphs_wrap_only_when_full(
        argv: list[str], cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "70")
    result = cli(*argv, "--help")
    assert result.code == 0
    prose = result.out.split("╭", 1)[0].split("Usage:", 1)[1].splitlines()[1:]
    paragraphs: list[list[str]] = [[]]
    for line in prose:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    assert paragraphs[0], f"`papermind {' '.join(argv)} --help` shows no description"
    for lines in paragraphs:
        assert_full_lines(lines, 70 - 2, f"`papermind {' '.join(argv)} --help`")


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_help_shows_types_as_command_line_tools_do(cli: CliRunner, argv: list[str]) -> None:
    """No Python annotations (`<bool>`, `<list[str]>`, `<str>`) and no `{ARG}` in usage."""
    page = cli(*argv, "--help").out
    assert page.strip(), argv
    assert not re.search(r"<(bool|str|int|float|list\[[^\]]*\]|int range|float range)>", page), page
    usage = next(line for line in page.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage, usage


def test_flags_have_no_type_and_values_do() -> None:
    from papermind.cli.help_types import readable

    assert readable("<bool>") is None and readable("<list[str]>") == "TEXT"
    assert readable("<int range>") == "INTEGER" and readable("<float>") == "NUMBER"
    assert readable("NAME") == "NAME"  # a metavar stays as written
