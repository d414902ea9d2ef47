"""The README, the documentation (docs/) and the CLI must not drift: commands, options, exit
codes and examples."""

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
PAGES = {path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8")
         for path in sorted((REPO / "docs").rglob("*.md"))}
LIBRARY_PAGE = PAGES["docs/guide/library.md"]
ALL_DOCS = "\n".join([README, *PAGES.values()])
README_MAX_LINES = 200
MODEL_FREE = {"parse", "add", "list", "show", "check", "search", "locate", "verify", "remove"}
ROOT: Any = typer.main.get_command(app)  # a click group (typer vendors its own click)

COMMAND_ROW = re.compile(r"^\| `papermind (\S+)[^`]*` \| (.+?) \|$", re.MULTILINE)
EXIT_ROW = re.compile(r"^\| (\d+) \| (.+?) \|$", re.MULTILINE)
CODE_BLOCK = re.compile(r"^```(?:console|bash|sh|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"no '## {title}' section"
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


def test_every_command_has_a_docs_row_with_its_help_summary() -> None:
    rows = COMMAND_ROW.findall(ALL_DOCS)
    commands = ROOT.commands
    documented = {name for name, _ in rows}
    missing = [f"| `papermind {name} ...` | {summary(cmd)} |"
               for name, cmd in sorted(commands.items()) if name not in documented]
    assert not missing, "add these rows to a command table in docs/:\n" + "\n".join(missing)
    unknown = sorted(documented - set(commands))
    assert not unknown, f"the docs document commands that do not exist: {unknown}"
    for name, text in rows:
        assert text == summary(commands[name]), (
            f"docs row for `papermind {name}` says {text!r}; its --help says "
            f"{summary(commands[name])!r}: make them the same")


def test_docs_have_examples() -> None:
    assert len(invocations(ALL_DOCS)) >= 40


def test_readme_is_read_in_minutes() -> None:
    lines = len(README.splitlines())
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines (at most {README_MAX_LINES}): move details to docs/")


@pytest.mark.parametrize("page", ["README.md", *PAGES])
def test_examples_use_real_commands_and_options(page: str) -> None:
    examples = invocations(README if page == "README.md" else PAGES[page])
    assert page != "README.md" or len(examples) >= 5
    root_options = option_names(ROOT)
    for argv in examples:
        globals_, name, rest = split_argv(argv)
        assert {t for t in globals_ if t.startswith("--")} <= root_options, argv
        if name is None:
            continue
        assert name in ROOT.commands, f"{page} uses unknown command `papermind {name}`"
        command = ROOT.commands[name]
        while getattr(command, "commands", None) and rest and rest[0] in command.commands:
            command, rest = command.commands[rest[0]], rest[1:]  # a group's subcommand
        allowed = option_names(command) | root_options
        used = {t.split("=")[0] for t in rest if t.startswith("--")}
        assert used <= allowed, f"{page}: `papermind {' '.join(argv)}`: unknown {used - allowed}"


def test_exit_code_table_matches_the_cli_table() -> None:
    rows = EXIT_ROW.findall(section(LIBRARY_PAGE, "Output and exit codes"))
    documented: dict[str, int] = {}
    for code, text in rows:
        for name in re.findall(r"`(\w+Error)`", text):
            documented[name] = int(code)
    expected = {kind.__name__: code for kind, code in EXIT_CODES if kind is not errors.PapermindError}
    assert set(documented) >= set(expected), f"undocumented: {set(expected) - set(documented)}"
    for name, code in documented.items():
        kind = getattr(errors, name)
        actual = next(c for k, c in EXIT_CODES if issubclass(kind, k))
        assert actual == code, f"docs say {name} exits {code}; cli/errors.py says {actual}"


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
    """The 'Using the library' page's examples, executed as written against a fresh library."""
    example = REPO / "examples" / "example_paper.pdf"
    paper_id = hashlib.sha256(example.read_bytes()).hexdigest()
    monkeypatch.chdir(REPO)
    for argv in invocations(LIBRARY_PAGE):
        _, name, rest = split_argv(argv)
        if name in {"show", "remove"}:
            ids = [t for t in rest if not t.startswith("-")]
            assert ids and paper_id.startswith(ids[0]), (
                f"docs show id {ids[0]!r} but examples/example_paper.pdf has id {paper_id[:12]}")
        result = cli(*argv)
        assert result.code == 0, f"`papermind {' '.join(argv)}` failed: {result.err}"
        if "--json" in argv and name != "remove":
            result.json()


def tour_steps() -> list[tuple[list[str], str]]:
    """(argv, the first output line shown under it) of each command in the README's tour."""
    steps = []
    for block in CODE_BLOCK.findall(section(README, "A five-minute tour")):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ papermind "):
                shown = next((out for out in lines[i + 1:] if out.strip()), "")
                steps.append((shlex.split(line[2:])[1:], "" if shown.startswith("$") else shown))
    return steps


def test_readme_tour_output_is_real(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tour's commands that need no model run as written and print what the README shows
    first (the model's commands are covered by tests/cli with the scripted fake model)."""
    monkeypatch.chdir(REPO)
    steps = tour_steps()
    assert [argv[0] for argv, _ in steps][:3] == ["add", "show", "check"]
    for argv, shown in steps:
        if argv[0] not in MODEL_FREE:
            continue
        result = cli(*argv)
        assert result.code == 0, f"`papermind {' '.join(argv)}` failed: {result.err}"
        assert " ".join(shown.split()) in " ".join(result.out.split()), (
            f"README shows {shown!r} under `papermind {' '.join(argv)}`; it printed:\n{result.out}")


def test_readme_links_point_at_files_in_the_repository() -> None:
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README)
    assert targets
    missing = [t for t in targets if not (REPO / t).exists()]
    assert not missing, f"README links to files that do not exist: {missing}"
