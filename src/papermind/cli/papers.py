"""Library commands: parse, add, list, show, remove."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from papermind.cli import paper_views as views
from papermind.cli.add_progress import add_progress
from papermind.cli.context import container, state, wants_json
from papermind.cli.filters import CollectionFilter, TagFilter, selected_papers
from papermind.cli.options import JsonFlag, Online, PaperId
from papermind.errors import ConfigError, InputError, PapermindError

if TYPE_CHECKING:  # the library stack loads when a command runs, not for --help
    from papermind.services.add_by_id import Identifier
    from papermind.services.library import AddResult


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
    paths: Annotated[list[str], typer.Argument(
        metavar="PATH", help="Files or folders (folders are searched for .pdf, .txt and .md "
        "files), or doi:10.../..., arxiv:2401.01234 or a URL (needs --online).")],
    online: Online = False,
    as_json: JsonFlag = False,
) -> None:
    """Add papers to the library (a file already stored is reported as 'exists').

    Each file is parsed, stored and BM25-indexed first, then the chunks are embedded in
    batches across papers. Interrupted? Run the same command again: stored files are
    skipped and only the chunks still without a vector are embedded. A DOI, arXiv id or URL
    is looked up online and its open-access PDF added; without one nothing is stored."""
    from papermind.services.add_by_id import parse_identifier

    ids = [(text, None if Path(text).exists() else parse_identifier(text)) for text in paths]
    results = [_add_by_id(ctx, text, ident, online) for text, ident in ids if ident]
    files = [Path(text) for text, ident in ids if ident is None]
    if files:
        with add_progress(state(ctx).err) as on_event:
            results += container(ctx).library.add(files, on_event=on_event)
    failed = [r for r in results if r.status == "failed"]
    json_out = wants_json(ctx, as_json)
    if json_out:
        state(ctx).emit_json([views.result_json(r) for r in results])
    elif len(results) == 1 and failed:
        one = failed[0]
        name = Path(one.path).name
        raise InputError(one.reason if name and name in one.reason else f"{one.path}: {one.reason}")
    else:
        state(ctx).console.print(views.add_table(results))
    if failed:
        raise InputError(_failure_summary(results, failed))


def _add_by_id(ctx: typer.Context, text: str, ident: Identifier, online: bool) -> AddResult:
    """One identifier added; a lookup that fails is that item's failure, not the batch's."""
    from papermind.services.library import AddResult

    try:
        result = container(ctx).add_by_id.add(ident, online=online)
    except ConfigError:
        raise
    except PapermindError as err:
        return AddResult(text, "failed", reason=str(err))
    container(ctx).library.catch_up()
    return result


def list_papers(
    ctx: typer.Context,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Show at most N papers.")] = None,
    tag: TagFilter = None,
    collection: CollectionFilter = None,
    all_versions: Annotated[bool, typer.Option(
        "--all-versions", help="Also list older versions of a paper (hidden by default).")] = False,
    as_json: JsonFlag = False,
) -> None:
    """List the papers in the library, newest first."""
    library = container(ctx).library
    selection = selected_papers(ctx, None, tag, collection)
    hidden = set() if all_versions else container(ctx).catalog.superseded()
    records = library.list(limit=limit if selection is None and not hidden else None)
    records = [r for r in records if r.id not in hidden
               and (selection is None or r.id in selection)][:limit]
    dense = library.coverage([r.id for r in records])
    if wants_json(ctx, as_json):
        state(ctx).emit_json([views.record_json(r, dense.get(r.id)) for r in records])
    elif not records:
        state(ctx).err.print("The library is empty: add papers with `papermind add PATH`.")
    else:
        views.print_list(state(ctx).console, records, dense)


def show(
    ctx: typer.Context,
    paper_id: PaperId,
    as_json: JsonFlag = False,
) -> None:
    """Show a stored paper: metadata, sections and findings."""
    library = container(ctx).library
    stored = library.show(paper_id)
    dense = library.coverage([stored.record.id]).get(stored.record.id)
    catalog = views.catalog_json(container(ctx).catalog, stored.record.id)
    if wants_json(ctx, as_json):
        state(ctx).emit_json({**views.stored_json(stored, dense), **catalog})
    else:
        views.print_paper(state(ctx).console, stored.paper, stored.record, dense)
        views.print_catalog(state(ctx).console, catalog)


def remove(
    ctx: typer.Context,
    paper_id: PaperId,
    as_json: JsonFlag = False,
) -> None:
    """Remove a paper from the library (its row, stored file and index entries)."""
    record = container(ctx).remove_paper(paper_id)
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
