"""``papermind export``: the library, a selection, or a report's cited works as BibTeX,
CSL-JSON or RIS."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, cast

import typer

from papermind.cli.context import container, state
from papermind.cli.filters import CollectionFilter, TagFilter, selected_papers
from papermind.disk_writes import write_atomically
from papermind.errors import InputError


def export(
    ctx: typer.Context,
    papers: Annotated[list[str] | None, typer.Argument(
        metavar="[PAPER]...", help="Paper ids or prefixes (default: the whole library).")] = None,
    fmt: Annotated[str, typer.Option("--format", help="bibtex, csl-json or ris.")] = "bibtex",
    tag: TagFilter = None,
    collection: CollectionFilter = None,
    report: Annotated[Path | None, typer.Option(
        "--report", help="A review's report.json: export the bibliography entries it cites.")]
    = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write to this file (default: stdout).")]
    = None,
) -> None:
    """Export papers' bibliographic data as BibTeX, CSL-JSON or RIS (or a review's cited works)."""
    from papermind.services.exports import FORMATS, ExportFormat, cited_works, render

    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (use {', '.join(FORMATS)})")
    box = container(ctx)
    if report is not None:
        data = _load_report(report)
        paper = box.library.get(box.papers.resolve(str(data.get("paper_id", ""))))
        works = cited_works(data, paper)
    else:
        works = box.exports.works(selected_papers(ctx, papers, tag, collection))
    text = render(works, cast(ExportFormat, fmt))
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_atomically(out, text)
        state(ctx).err.print(f"wrote {len(works)} entries to {out}", highlight=False)


def _load_report(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"{path}: not a readable report.json ({err})") from err
    if not isinstance(data, dict) or not data.get("paper_id"):
        raise InputError(f"{path}: not a report (no paper_id)")
    return data


def register(app: typer.Typer) -> None:
    app.command("export")(export)

