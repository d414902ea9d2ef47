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
Lang = Annotated[str | None, typer.Option(
    "--lang", help="Language of the report's explanations, comments and answers: en, zh, ... "
                   "or auto (the question's language for QA, else English); quotes stay "
                   "verbatim. Default: the 'language' setting.")]
OutDir = Annotated[Path | None, typer.Option(
    "--out", help="Folder for report.json, report.md and report.html "
                  "(default: <home>/reports/<job id>).")]
ResumeJob = Annotated[str | None, typer.Option(
    "--job", help="Job id: resume that job where it stopped (default: a new job).")]
Online = Annotated[bool, typer.Option(
    "--online", help="Ask the scholarly sources (OpenAlex, Crossref...) for this command even "
                     "when scholar.enabled is off (the default: nothing is sent).")]
