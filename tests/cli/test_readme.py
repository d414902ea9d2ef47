"""The README and the CLI must not drift: commands, options, exit codes and examples."""

from __future__ import annotations

import hashlib
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer.main

from papermind import errors
from papermind.cli.app import app
from papermind.cli.errors import EXIT_CODES
from tests.support.cli import CliRunner

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
ROOT: Any = typer.main.get_command(app)  # a click group (typer vendors its own click)

COMMAND_ROW = re.compile(r"^\| `papermind (\S+)[^`]*` \| (.+?) \|$", re.MULTILINE)
EXIT_ROW = re.compile(r"^\| (\d+) \| (.+?) \|$", re.MULTILINE)
CODE_BLOCK = re.compile(r"^```(?:console|bash|sh|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def invocations(text: str) -> list[list[str]]:
    """Every `papermind ...` command line in the code blocks of ``text``, as argv lists."""
    found = []
    for block in CODE_BLOCK.findall(text):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("papermind ") or line == "papermind":
                found.append(shlex.split(line, comments=True)[1:])
    return found


def summary(command: Any) -> str:
    """The first paragraph of a command's help, on one line (what `--help` shows first)."""
    return " ".join((command.help or "").strip().split("\n\n")[0].split())


def split_argv(argv: list[str]) -> tuple[list[str], str | None, list[str]]:
    """(global options, command name, command arguments) of a papermind argv."""
    for i, token in enumerate(argv):
        if not token.startswith("-") and (i == 0 or argv[i - 1] != "--home"):
            return argv[:i], token, argv[i + 1:]
    return argv, None, []


def option_names(command: Any) -> set[str]:
    return {name for p in command.params if p.param_type_name == "option"
            for name in (*p.opts, *p.secondary_opts)} | {"--help"}


def test_every_command_has_a_readme_row_with_its_help_summary() -> None:
    rows = dict(COMMAND_ROW.findall(README))
    commands = ROOT.commands
    missing = [f"| `papermind {name} ...` | {summary(cmd)} |"
               for name, cmd in sorted(commands.items()) if name not in rows]
    assert not missing, "add these rows to a command table in README.md:\n" + "\n".join(missing)
    unknown = sorted(set(rows) - set(commands))
    assert not unknown, f"README documents commands that do not exist: {unknown}"
    for name, text in rows.items():
        assert text == summary(commands[name]), (
            f"README row for `papermind {name}` says {text!r}; its --help says "
            f"{summary(commands[name])!r}: make them the same")


def test_readme_examples_use_real_commands_and_options() -> None:
    examples = invocations(README)
    assert len(examples) >= 8
    root_options = option_names(ROOT)
    for argv in examples:
        globals_, name, rest = split_argv(argv)
        assert {t for t in globals_ if t.startswith("--")} <= root_options, argv
        if name is None:
            continue
        assert name in ROOT.commands, f"README uses unknown command `papermind {name}`"
        command = ROOT.commands[name]
        while getattr(command, "commands", None) and rest and rest[0] in command.commands:
            command, rest = command.commands[rest[0]], rest[1:]  # a group's subcommand
        allowed = option_names(command) | root_options
        used = {t.split("=")[0] for t in rest if t.startswith("--")}
        assert used <= allowed, f"`papermind {' '.join(argv)}`: unknown {used - allowed}"


def test_exit_code_table_matches_the_cli_table() -> None:
    rows = EXIT_ROW.findall(section("Using the library"))
    documented: dict[str, int] = {}
    for code, text in rows:
        for name in re.findall(r"`(\w+Error)`", text):
            documented[name] = int(code)
    expected = {kind.__name__: code for kind, code in EXIT_CODES if kind is not errors.PapermindError}
    assert set(documented) >= set(expected), f"undocumented: {set(expected) - set(documented)}"
    for name, code in documented.items():
        kind = getattr(errors, name)
        actual = next(c for k, c in EXIT_CODES if issubclass(kind, k))
        assert actual == code, f"README says {name} exits {code}; cli/errors.py says {actual}"


@pytest.mark.parametrize("name", [None, *sorted(ROOT.commands)])
def test_help_renders(name: str | None, cli: CliRunner) -> None:
    result = cli("--help") if name is None else cli(name, "--help")
    assert result.code == 0
    text = " ".join(result.out.split())
    if name is None:
        assert all(cmd in text for cmd in ROOT.commands)
    else:
        assert " ".join(summary(ROOT.commands[name]).split()) in text


def test_library_examples_run_in_order(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 'Using the library' examples, executed as written against a fresh library."""
    example = REPO / "examples" / "example_paper.pdf"
    paper_id = hashlib.sha256(example.read_bytes()).hexdigest()
    monkeypatch.chdir(REPO)
    for argv in invocations(section("Using the library")):
        _, name, rest = split_argv(argv)
        if name in {"show", "remove"}:
            ids = [t for t in rest if not t.startswith("-")]
            assert ids and paper_id.startswith(ids[0]), (
                f"README shows id {ids[0]!r} but examples/example_paper.pdf has id {paper_id[:12]}")
        result = cli(*argv)
        assert result.code == 0, f"`papermind {' '.join(argv)}` failed: {result.err}"
        if "--json" in argv and name != "remove":
            result.json()
