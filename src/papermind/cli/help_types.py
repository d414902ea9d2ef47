"""Readable types in `--help`: Typer 0.29 prints Python annotations (`--json <bool>`,
`--paper <list[str]>`, usage `{PAPER}`); users expect what command-line tools print: no
type after a flag, TEXT / INTEGER / NUMBER / PATH after an option, usage `QUERY`,
`PAPER` and `[PATH]...`. ``install`` swaps Typer's two display methods for these (once, at import of
the CLI); a test reads every command's help."""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperOption

NAMES = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "path": "PATH", "Path": "PATH",
         "int range": "INTEGER", "float range": "NUMBER", "datetime": "DATE"}
"""Typer's type label (inside <...>, list[...] unwrapped) -> the name help shows."""


def readable(label: str | None) -> str | None:
    """``<list[str]>`` -> 'TEXT', ``<int range>`` -> 'INTEGER', ``<bool>`` -> None."""
    if label is None or not (label.startswith("<") and label.endswith(">")):
        return label
    inner = label[1:-1]
    if inner.startswith("list[") and inner.endswith("]"):
        inner = inner[5:-1]
    if inner == "bool":
        return None
    return NAMES.get(inner, inner.upper() if inner.isidentifier() else f"[{inner}]")


def install() -> None:
    """Patch Typer's help display (idempotent)."""
    if getattr(TyperOption, "_papermind_help", False):
        return
    option_display = TyperOption.display_type_rich
    argument_display = TyperArgument.display_type_rich

    def option_type(self: TyperOption, ctx: Any) -> str | None:
        if self.is_flag:
            return None
        return readable(option_display(self, ctx))

    def argument_type(self: TyperArgument, ctx: Any) -> str | None:
        return readable(argument_display(self, ctx))

    def usage_name(self: TyperArgument) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")

    TyperArgument.display_name_raw = property(  # type: ignore[assignment,method-assign]
        lambda self: self.metavar or (self.name or "").upper())
    TyperOption.display_type_rich = option_type  # type: ignore[method-assign]
    TyperArgument.display_type_rich = argument_type  # type: ignore[method-assign,assignment]
    TyperArgument._usage_display_name = usage_name  # type: ignore[method-assign]
    TyperOption._papermind_help = True  # type: ignore[attr-defined]
