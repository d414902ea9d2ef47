"""``papermind backup DEST`` and ``papermind restore SRC`` (the embedded SQLite library)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from papermind.cli.context import state, wants_json
from papermind.cli.options import JsonFlag

if TYPE_CHECKING:
    from papermind.services.backup import BackupSummary


def backup(
    ctx: typer.Context,
    dest: Annotated[Path, typer.Argument(metavar="DEST", help="A new or empty folder.")],
    as_json: JsonFlag = False,
) -> None:
    """Back up the library (database snapshot, original files, reports); safe while serve runs."""
    from papermind.services.backup import backup as take

    _report(ctx, "backed up", take(state(ctx).settings, dest), as_json)


def restore(
    ctx: typer.Context,
    src: Annotated[Path, typer.Argument(metavar="SRC", help="A folder written by backup.")],
    force: Annotated[bool, typer.Option(
        "--force", help="Replace the library already in --home (stop serve first).")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Restore a backup into --home (an empty one unless --force); search indexes rebuild."""
    from papermind.services.backup import restore as put_back

    _report(ctx, "restored", put_back(state(ctx).settings, src, force=force), as_json)


def _report(ctx: typer.Context, verb: str, summary: BackupSummary, as_json: bool) -> None:
    if wants_json(ctx, as_json):
        state(ctx).emit_json({"folder": str(summary.folder), "papers": summary.papers,
                              "files": summary.files, "bytes": summary.bytes})
        return
    state(ctx).console.print(f"{verb} {summary.papers} papers, {summary.files} files "
                             f"({summary.bytes / 1e6:.1f} MB): {summary.folder}",
                             highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.command("backup")(backup)
    app.command("restore")(restore)
