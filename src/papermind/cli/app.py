"""Root Typer app. Each command module exposes ``register(app)``; list it in COMMAND_MODULES."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import Annotated

import typer

from papermind import __version__
from papermind.cli import help_types
from papermind.cli.context import CliState, library_home
from papermind.cli.errors import exit_code
from papermind.disk_writes import storage_fault
from papermind.errors import PapermindError

COMMAND_MODULES = [
    "papermind.cli.papers",
    "papermind.cli.refs",
    "papermind.cli.locate",
    "papermind.cli.verify",
    "papermind.cli.check",
    "papermind.cli.search",
    "papermind.cli.read",
    "papermind.cli.ask",
    "papermind.cli.review",
    "papermind.cli.models",
    "papermind.cli.serve",
    "papermind.cli.mcp",
    "papermind.cli.worker",
    "papermind.cli.labels",
    "papermind.cli.imports",
    "papermind.cli.export",
    "papermind.cli.evaluate",
    "papermind.cli.backup",
]

help_types.install()
app = typer.Typer(
    name="papermind",
    help="Read, question and pre-review academic papers; every claim points to page and line.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"papermind {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    home: Annotated[Path | None, typer.Option(
        "--home", help="Library folder (default: $PAPERMIND_HOME or ~/.papermind).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """PaperMind command line."""
    ctx.obj = CliState(home=home, as_json=as_json)


def reflow_help(typer_app: typer.Typer) -> None:
    """Give every command, in every group, its docstring as paragraphs of one line each.

    Typer's rich help keeps a docstring's source line breaks, so a docstring wrapped at 90
    columns came out broken mid-sentence ('checked against the / paper's text') in the command
    list and on narrow terminals. One line per paragraph lets the terminal wrap it; the first
    paragraph is the summary the command list shows. A paragraph starting with click's
    no-rewrap marker (\\b) is left as written.
    """
    for info in typer_app.registered_commands:
        text = info.help or inspect.getdoc(info.callback) or ""
        paragraphs = [p if p.startswith("\b") else " ".join(p.split()) for p in text.split("\n\n")]
        info.help = "\n\n".join(paragraphs)
        if info.short_help is None:
            info.short_help = paragraphs[0]
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)
reflow_help(app)


def main() -> None:
    """Console entry point: runs the app and maps PapermindError to exit codes."""
    try:
        result = app(standalone_mode=False)
        if isinstance(result, int):
            sys.exit(result)
    except PapermindError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(exit_code(err))
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(130)
    except typer.TyperException as err:  # usage errors (typer's own click) in non-standalone mode
        show = getattr(err, "show", None)
        if not callable(show):
            raise
        show()
        sys.exit(getattr(err, "exit_code", 2))
    except Exception as err:  # a full disk anywhere: one line, not a traceback
        fault = storage_fault(err, library_home())
        if fault is None:
            raise
        typer.echo(f"error: {fault}", err=True)
        sys.exit(exit_code(fault))
