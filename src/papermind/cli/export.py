"""``papermind export``: the library, a selection, or a report's cited works in one of the
export formats (services/export_formats.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from papermind.cli.context import container, state, wants_json
from papermind.cli.filters import CollectionFilter, TagFilter, selected_papers
from papermind.cli.options import JsonFlag
from papermind.disk_writes import write_atomically
from papermind.errors import InputError
from papermind.services.export_formats import export_format, format_names


def export(
    ctx: typer.Context,
    papers: Annotated[list[str] | None, typer.Argument(
        metavar="[PAPER]...", help="Paper ids or prefixes (default: the whole library).")] = None,
    fmt: Annotated[str, typer.Option("--format", help=f"{format_names()}.")] = "bibtex",
    tag: TagFilter = None,
    collection: CollectionFilter = None,
    report: Annotated[Path | None, typer.Option(
        "--report", help="A review's report.json: export the bibliography entries it cites.")]
    = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write to this file (default: stdout).")]
    = None,
    as_json: JsonFlag = False,
) -> None:
    """Export papers' bibliographic data (or a review's cited works); help: see ``register``."""
    from papermind.services.exports import cited_works

    form = export_format(fmt)
    box = container(ctx)
    if report is not None:
        data = _load_report(report)
        paper = box.library.get(box.papers.resolve(str(data.get("paper_id", ""))))
        works = cited_works(data, paper)
    else:
        works = box.exports.works(selected_papers(ctx, papers, tag, collection))
    text = form.write(works)
    cli = state(ctx)
    if not works:
        cli.err.print(f"nothing to export: {_why_empty(report, papers, tag, collection)}",
                      highlight=False)
    if out is not None:
        write_atomically(out, text)
        cli.err.print(f"wrote {len(works)} entries to {out}", highlight=False)
    if wants_json(ctx, as_json):
        cli.emit_json({"format": fmt, "count": len(works), "keys": [key for key, _ in works],
                       "out": str(out) if out is not None else None,
                       "text": text if out is None else None})
    elif out is None:
        typer.echo(text, nl=False)


def _why_empty(report: Path | None, papers: list[str] | None, tag: list[str] | None,
               collection: list[str] | None) -> str:
    if report is not None:
        return (f"{report} cites no bibliography entry that grounding resolved (comments "
                "whose references were not found in the bibliography are not exported)")
    if papers or tag or collection:
        return "no paper matches the selection"
    return "the library is empty (papermind add FILE)"


def _load_report(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"{path}: not a readable report.json ({err})") from err
    if not isinstance(data, dict) or not data.get("paper_id"):
        raise InputError(f"{path}: not a report (no paper_id)")
    return data


def register(app: typer.Typer) -> None:
    app.command("export", help=f"Export papers' bibliographic data as "
                f"{format_names(labels=True)} (or a review's cited works).")(export)

