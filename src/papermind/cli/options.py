"""Arguments and options that several commands share, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
ReportJsonFlag = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]
PaperId = Annotated[str, typer.Argument(metavar="ID", help="Paper id, or any unique prefix of it.")]
PaperToAdd = Annotated[str, typer.Argument(
    metavar="PAPER", help="Library id (or unique prefix), or a .pdf/.txt/.md file to add first.")]
OutDir = Annotated[Path | None, typer.Option(
    "--out", help="Folder for report.json, report.md and report.html "
                  "(default: <home>/reports/<job id>).")]
