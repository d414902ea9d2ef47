"""``papermind import zotero [PATH]`` and ``papermind import bibtex FILE.bib``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag
from papermind.errors import InputError

if TYPE_CHECKING:  # services load when the command runs, not for --help
    from papermind.services.imports import ImportResult

STATUS_STYLE = {"added": "green", "exists": "cyan", "skipped": "yellow", "failed": "bold red"}


def import_library(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="SOURCE", help="zotero or bibtex.")],
    path: Annotated[Path | None, typer.Argument(
        metavar="PATH", help="Zotero data directory (default ~/Zotero) or the .bib file.")] = None,
    allow_outside: Annotated[bool, typer.Option(
        "--allow-outside", help="Take attachments outside the Zotero folders, the .bib "
        "file's folder, JabRef's file directory and your home folder (they must still be "
        "PDFs).")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Import papers with their metadata, tags and collections from Zotero or a BibTeX file."""
    from papermind.services.imports import SOURCES

    if source not in SOURCES:
        raise InputError(f"unknown import source {source!r} (use {' or '.join(SOURCES)})")
    results = container(ctx).imports.import_source(source, path,
                                                      allow_outside=allow_outside)
    if wants_json(ctx, as_json):
        state(ctx).emit_json([result_json(r) for r in results])
    else:
        state(ctx).console.print(results_table(results))
        counts = {s: sum(r.status == s for r in results) for s in STATUS_STYLE}
        state(ctx).err.print(", ".join(f"{n} {s}" for s, n in counts.items()), highlight=False)
    failed = sum(r.status == "failed" for r in results)
    if failed:
        counts = {s: sum(r.status == s for r in results) for s in ("added", "exists", "skipped")}
        raise InputError(f"{failed} of {len(results)} items failed ({counts['added']} added, "
                         f"{counts['exists']} already in the library, {counts['skipped']} "
                         "skipped)")


def result_json(result: ImportResult) -> dict[str, object]:
    return {"key": result.key, "status": result.status, "paper_id": result.paper_id,
            "title": result.title, "reason": result.reason, "line": result.line,
            "file": result.file, "version_of": result.version_of}


def results_table(results: list[ImportResult]) -> Table:
    table = Table(show_edge=False, pad_edge=False)
    for column in ("Key", "Status", "ID", "Title / reason"):
        table.add_column(column, overflow="fold")
    for row in results:
        detail = row.reason if row.status in {"failed", "skipped"} else row.title
        if row.reason and row.status in {"added", "exists"} and row.reason != "imported before":
            detail += f" ({row.reason})"
        if row.version_of:
            detail += f" (new version of {row.version_of[:12]})"
        table.add_row(escape(row.key), f"[{STATUS_STYLE[row.status]}]{row.status}[/]",
                      (row.paper_id or "-")[:12], escape(detail))
    return table


def register(app: typer.Typer) -> None:
    app.command("import")(import_library)
