"""Root Typer app. Each command module exposes ``register(app)``; list it in COMMAND_MODULES."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import Annotated

import typer

from papermind import __version__
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


def one_line_summaries(typer_app: typer.Typer) -> None:
    """Give every command, in every group, its help's first paragraph on one line as its summary.

    Typer's rich help keeps a docstring's line breaks in the command list, so a docstring
    wrapped in the source came out broken mid-sentence ('checked against the / paper's text').
    """
    for info in typer_app.registered_commands:
        if info.short_help is None:
            text = info.help or inspect.getdoc(info.callback) or ""
            info.short_help = " ".join(text.split("\n\n")[0].split())
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            one_line_summaries(group.typer_instance)


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)
one_line_summaries(app)


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
