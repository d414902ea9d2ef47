"""Per-invocation state shared by all commands: settings, output mode, console."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from papermind.config import Settings, load_settings


@dataclass
class CliState:
    home: Path | None = None
    as_json: bool = False
    console: Console = field(default_factory=lambda: Console(stderr=False))
    err: Console = field(default_factory=lambda: Console(stderr=True))
    _settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.home)
        return self._settings

    def emit_json(self, payload: Any) -> None:
        """Write machine-readable output to stdout (no Rich markup)."""
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")


def state(ctx: typer.Context) -> CliState:
    """The CliState of this invocation."""
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState()
    return root.obj


def wants_json(ctx: typer.Context, flag: bool) -> bool:
    """A command's own --json flag or the global one."""
    return flag or state(ctx).as_json
