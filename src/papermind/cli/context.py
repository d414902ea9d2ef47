"""Per-invocation state shared by all commands: settings, output mode, console."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

if TYPE_CHECKING:  # imported when first used, so `--help` stays instant
    from papermind.config import Settings
    from papermind.services.container import Container


@dataclass
class CliState:
    home: Path | None = None
    as_json: bool = False
    console: Console = field(default_factory=lambda: Console(stderr=False))
    err: Console = field(default_factory=lambda: Console(stderr=True))
    _settings: Settings | None = None
    _container: Container | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            from papermind.config import load_settings

            self._settings = load_settings(self.home)
            _HOMES.append(self._settings.home_dir)
        return self._settings

    def emit_json(self, payload: Any) -> None:
        """Write machine-readable output to stdout (no Rich markup)."""
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")


_HOMES: list[Path] = []


def library_home() -> Path | None:
    """The library folder this invocation uses, once its settings are loaded."""
    return _HOMES[-1] if _HOMES else None


def state(ctx: typer.Context) -> CliState:
    """The CliState of this invocation."""
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState()
    return root.obj


def container(ctx: typer.Context) -> Container:
    """The composition root of this invocation (built once, closed when the command ends)."""
    current = state(ctx)
    if current._container is None:
        from papermind.services.container import Container

        current._container = Container(current.settings)
        ctx.find_root().call_on_close(current._container.close)
    return current._container


def wants_json(ctx: typer.Context, flag: bool) -> bool:
    """A command's own --json flag or the global one."""
    return flag or state(ctx).as_json


def show_run(ctx: typer.Context, run: Any, as_json: bool, *, job_id_in_json: bool = False) -> None:
    """A finished workflow run: the files it wrote (stderr), then its report as JSON or as the
    workflow's terminal summary (the renderer contract's ``to_json``/``to_terminal``)."""
    from papermind.services.report_files import report_data
    from papermind.services.workflow_table import renderer_for

    cli = state(ctx)
    for path in run.files:
        cli.err.print(f"wrote {path}", highlight=False)
    if wants_json(ctx, as_json):
        head = {"job_id": run.job_id} if job_id_in_json else {}
        cli.emit_json({**head, **report_data(run.report)})
    else:
        renderer_for(run.report.kind).to_terminal(cli.console, run.report, run.job_id)
