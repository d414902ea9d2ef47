"""Tags and collections: ``papermind tag`` and ``papermind collection``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag
from papermind.errors import InputError
from papermind.library.labels import LabelKind

RemoveFlag = Annotated[bool, typer.Option("--remove", help="Remove instead of adding.")]
ListFlag = Annotated[bool, typer.Option("--list", help="List the names in use and their paper counts.")]


def tag(
    ctx: typer.Context,
    paper: Annotated[str | None, typer.Argument(
        metavar="PAPER", help="Paper id, or any unique prefix of it.")] = None,
    names: Annotated[list[str] | None, typer.Argument(metavar="TAG...", help="Tags.")] = None,
    remove: RemoveFlag = False,
    show_list: ListFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Tag a paper (or remove tags, or list the tags in use)."""
    _run(ctx, "tag", names or [], [paper] if paper else [], remove, show_list, as_json)


def collection(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(
        metavar="NAME", help="Collection; 'Parent/Child' for a sub-collection.")] = None,
    papers: Annotated[list[str] | None, typer.Argument(
        metavar="PAPER...", help="Paper ids or unique prefixes.")] = None,
    remove: RemoveFlag = False,
    show_list: ListFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Put papers in a collection (or take them out, or list the collections)."""
    _run(ctx, "collection", [name] if name else [], papers or [], remove, show_list, as_json)


def _run(ctx: typer.Context, kind: LabelKind, names: list[str], papers: list[str],
         remove: bool, show_list: bool, as_json: bool) -> None:
    catalog = container(ctx).catalog
    if show_list:
        used = catalog.names(kind)
        if wants_json(ctx, as_json):
            state(ctx).emit_json([{"name": n, "papers": count} for n, count in used])
        for name, count in ([] if wants_json(ctx, as_json) else used):
            state(ctx).console.print(f"{escape(name)}  [dim]{count}[/]")
        return
    if not names or not papers:
        raise InputError(f"give a paper and at least one {kind}" if kind == "tag"
                         else "give a collection name and at least one paper")
    change = catalog.label(kind, names, papers, remove=remove)
    if wants_json(ctx, as_json):
        state(ctx).emit_json({"kind": kind, "names": change.names, "papers": change.paper_ids,
                              "removed" if remove else "added": change.changed})
    else:
        verb = "removed" if remove else "added"
        state(ctx).console.print(f"{verb} {change.changed} {kind} label(s) on "
                                 f"{len(change.paper_ids)} paper(s)", markup=False)


def register(app: typer.Typer) -> None:
    app.command("tag")(tag)
    app.command("collection")(collection)
