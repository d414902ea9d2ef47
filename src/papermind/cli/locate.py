"""`papermind locate PAPER "quote"`: where does the paper say this? Exit 1 when nowhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag

if TYPE_CHECKING:
    from papermind.services.verification import LocateResult

NOT_FOUND_EXIT = 1
"""Special to this command (not in the error table): a quote that is not found is data."""


def locate(
    ctx: typer.Context,
    paper: Annotated[str, typer.Argument(
        metavar="PAPER", help="Library id (or unique prefix), or a file path (parsed, not stored).")],
    quote: Annotated[str, typer.Argument(metavar="QUOTE", help="The text to find.")],
    claim: Annotated[str | None, typer.Option(
        "--claim", help="Also check a claim (numbers, names, tables...) against what is found.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Find where a paper says a quote: page, lines, the paper's text and a score."""
    from papermind.services.verification import locate_quote

    result = locate_quote(container(ctx).library, paper, quote, claim)
    if wants_json(ctx, as_json):
        state(ctx).emit_json(locate_json(result))
    else:
        print_result(state(ctx).console, result)
    if result.evidence.anchor is None:
        raise typer.Exit(NOT_FOUND_EXIT)


def locate_json(result: LocateResult) -> dict[str, Any]:
    """The evidence item in its one JSON shape (``anchor`` null only when not found), with
    the paper and the lines it covers."""
    from papermind.reports import evidence_json

    return {"paper": {"id": result.paper.id, "title": result.paper.title},
            **evidence_json(result.evidence),
            "lines": [{"page": ln.page, "n": ln.n, "text": ln.text} for ln in result.lines]}


def print_result(console: Console, result: LocateResult) -> None:
    from papermind.reports import status_label

    e = result.evidence
    if e.anchor is None:
        console.print(f"[bold red]Not found[/] in {escape(result.paper.title or result.paper.id[:12])}")
    else:
        console.print(f"[bold]{escape(e.anchor.label())}[/]  {escape(status_label(e))}  "
                      f"(method {e.method}, score {e.score:.2f})")
        for line in result.lines:
            console.print(f"  p. {line.page:>3}, l. {line.n:>3} | {escape(line.text)}")
        console.print(f"Matched text: {escape(e.matched_text)}")
    for reason in [*e.reasons, *e.notes]:
        console.print(f"  - {escape(reason)}")


def register(app: typer.Typer) -> None:
    app.command("locate")(locate)
