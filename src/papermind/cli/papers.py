"""Library commands: parse, add, list, show, remove."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from papermind.cli import paper_views as views
from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag
from papermind.errors import InputError

if TYPE_CHECKING:  # the library stack loads when a command runs, not for --help
    from rich.progress import Progress

    from papermind.services.library import AddResult, ProgressHook


def parse(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A .pdf, .txt or .md file.")],
    as_json: JsonFlag = False,
) -> None:
    """Parse a paper and print its structure, without storing it."""
    paper = container(ctx).parser.parse(file)
    if wants_json(ctx, as_json):
        state(ctx).emit_json(views.paper_json(paper))
    else:
        views.print_paper(state(ctx).console, paper)


def add(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(
        metavar="PATH", help="Files or folders (folders are searched for .pdf, .txt and .md files).")],
    as_json: JsonFlag = False,
) -> None:
    """Add papers to the library (a file already stored is reported as 'exists')."""
    with _progress(state(ctx).err) as on_file:
        results = container(ctx).library.add(paths, on_file=on_file)
    failed = [r for r in results if r.status == "failed"]
    json_out = wants_json(ctx, as_json)
    if json_out:
        state(ctx).emit_json([views.result_json(r) for r in results])
    elif len(results) == 1 and failed:
        raise InputError(failed[0].reason)
    else:
        state(ctx).console.print(views.add_table(results))
    if failed:
        raise InputError(_failure_summary(results, failed))


def list_papers(
    ctx: typer.Context,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Show at most N papers.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """List the papers in the library, newest first."""
    records = container(ctx).library.list(limit=limit)
    if wants_json(ctx, as_json):
        state(ctx).emit_json([views.record_json(r) for r in records])
    elif not records:
        state(ctx).err.print("The library is empty: add papers with `papermind add PATH`.")
    else:
        state(ctx).console.print(views.list_table(records))


def show(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(
        metavar="ID", help="Paper id, or any unique prefix of it.")],
    as_json: JsonFlag = False,
) -> None:
    """Show a stored paper: metadata, sections and findings."""
    stored = container(ctx).library.show(paper_id)
    if wants_json(ctx, as_json):
        state(ctx).emit_json(views.stored_json(stored))
    else:
        views.print_paper(state(ctx).console, stored.paper, stored.record)


def remove(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(
        metavar="ID", help="Paper id, or any unique prefix of it.")],
    as_json: JsonFlag = False,
) -> None:
    """Remove a paper from the library (its row, stored file and index entries)."""
    record = container(ctx).library.remove(paper_id)
    if wants_json(ctx, as_json):
        state(ctx).emit_json({"removed": record.id, "title": record.title})
    else:
        state(ctx).console.print(f"Removed {record.id[:views.ID_CHARS]} "
                                 f"{record.title or record.source_name}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("parse")(parse)
    app.command("add")(add)
    app.command("list")(list_papers)
    app.command("show")(show)
    app.command("remove")(remove)


def _failure_summary(results: list[AddResult], failed: list[AddResult]) -> str:
    names = ", ".join(Path(r.path).name for r in failed[:5])
    more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
    stored = sum(r.status != "failed" for r in results)
    return (f"{len(failed)} of {len(results)} files failed ({names}{more}); "
            f"{stored} stored or already present")


@contextmanager
def _progress(console: Console) -> Iterator[ProgressHook]:
    """A progress bar on stderr for batches of more than one file (terminals only)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar: Progress | None = None
    task = None

    def on_file(done: int, total: int, result: AddResult | None) -> None:
        nonlocal bar, task
        if total < 2 or not console.is_terminal:
            return
        if bar is None:
            bar = Progress(TextColumn("[bold]adding"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TextColumn("{task.description}"),
                           console=console, transient=True)
            bar.start()
            task = bar.add_task("", total=total)
        assert task is not None
        name = Path(result.path).name if result is not None else ""
        bar.update(task, completed=done, description=name)

    try:
        yield on_file
    finally:
        if bar is not None:
            bar.stop()
