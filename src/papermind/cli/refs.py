"""`papermind refs`: a paper's bibliography checked against the scholarly sources."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag, Online
from papermind.errors import SourceDownError

if TYPE_CHECKING:
    from papermind.domain.scholar import ReferencesReport

_STYLE = {"verified": "green", "mismatch": "yellow", "not_found": "red", "ambiguous": "yellow",
          "skipped": "dim"}


def refs(
    ctx: typer.Context,
    paper: Annotated[str, typer.Argument(
        metavar="PAPER", help="Library id (or unique prefix), or a .pdf/.txt/.md file.")],
    online: Online = False,
    as_json: JsonFlag = False,
) -> None:
    """Check every bibliography entry against OpenAlex and Crossref: verified, mismatch
    (naming the field), not_found ("check it"), ambiguous or skipped; retractions flagged.

    Needs the scholarly sources: pass --online or set scholar.enabled. Answers are cached in
    the library, so a second run sends nothing."""
    report = container(ctx).references.check(paper, online=online)
    if wants_json(ctx, as_json):
        state(ctx).emit_json(report.to_json())
    else:
        _print(ctx, report)
    down = [s.message for s in report.sources if s.status == "down"]
    for message in down:
        state(ctx).err.print(f"warning: {message}; its lookups were skipped", markup=False)
    if report.sources and len(down) == len(report.sources):
        raise SourceDownError(f"no scholarly source could be reached ({'; '.join(down)})")


def _print(ctx: typer.Context, report: ReferencesReport) -> None:
    console = state(ctx).console
    console.print(_table(report))
    counts = report.counts()
    console.print(", ".join(f"{n} {k.replace('_', ' ')}" for k, n in counts.items() if n)
                  or "no bibliography entries found", markup=False)


def _table(report: ReferencesReport) -> Table:
    table = Table(show_edge=False, pad_edge=False, title=report.title or None)
    for name in ("#", "status", "entry", "what to do"):
        table.add_column(name, overflow="fold")
    for ref in report.references:
        status = ref.status.replace("_", " ") + (" RETRACTED" if ref.retracted else "")
        advice = "; ".join([ref.message, *ref.notes]).strip("; ")
        table.add_row(str(ref.index), f"[{_STYLE[ref.status]}]{status}[/]",
                      escape(ref.text[:90] + ("..." if len(ref.text) > 90 else "")),
                      escape(advice))
    return table


def register(app: typer.Typer) -> None:
    app.command("refs")(refs)
