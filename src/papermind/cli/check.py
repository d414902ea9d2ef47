"""`papermind check PAPER [--format F] [--baseline FILE] [--venue NAME] [--anonymous]
[--fail-on LEVEL] [--online]`: the model-free pre-submission check of a stored paper, a PDF /
.txt / .md file, or a LaTeX project (a folder with main.tex, or the main .tex). No model; no
network unless --online (or scholar.enabled): then the bibliography is also checked against
the scholarly sources. Output as a table, JSON, SARIF 2.1.0 or GitHub annotations."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag, Online
from papermind.errors import InputError

if TYPE_CHECKING:
    from papermind.domain.check import CheckReport

CHECK_FAILED_EXIT = 1
"""Special to this command (not in the error table): findings at or above --fail-on."""
FORMATS = ("text", "json", "sarif", "github")


def check(
    ctx: typer.Context,
    paper: Annotated[str, typer.Argument(
        metavar="PAPER", help="Library id (or unique prefix), a .pdf/.txt/.md file, or a LaTeX "
                              "project (its folder or main .tex; anchors are then file:line).")],
    venue: Annotated[str | None, typer.Option(
        "--venue", metavar="NAME",
        help="Also check the venue's required parts and page limit: neurips, iclr, acl.")] = None,
    anonymous: Annotated[bool, typer.Option(
        "--anonymous", help="Double-blind: also flag self-identifying citations, "
                            "acknowledgements, funding, author names or e-mails, own repositories.")] = False,
    fail_on: Annotated[str, typer.Option(
        "--fail-on", metavar="LEVEL",
        help="Exit 1 when a finding is at this severity or above: high, medium, low or none.")] = "none",
    online: Online = False,
    output: Annotated[str, typer.Option(
        "--format", metavar="FORMAT",
        help="text (a table), json, sarif (SARIF 2.1.0 for code scanning and editors) or "
             "github (workflow annotations).")] = "text",
    baseline: Annotated[Path | None, typer.Option(
        "--baseline", metavar="FILE",
        help="An earlier run's --format json or sarif output: report only findings it did "
             "not have (lines may have moved).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Check a paper before submission, by code alone: numbers vs tables, citations and
    bibliography, references to tables/figures/sections, instructions to reviewers,
    acronyms (and anonymity, venue requirements).

    With --online (or scholar.enabled) the bibliography is also checked against the
    scholarly sources: entries not found, with a wrong field, or retracted.

    A LaTeX project (main.tex, its \\input and \\include files, its .bib) is checked at
    file:line: \\cite keys against the .bib, \\ref against \\label, duplicated and
    incomplete .bib entries, instructions to reviewers, acronyms, anonymity (--anonymous) and,
    with --online, each .bib entry against the scholarly sources at its .bib line. Numbers
    against tables are checked on the compiled PDF."""
    from papermind.services.check_outputs import read_baseline, since_baseline
    from papermind.services.checking import FAIL_LEVELS, check_target, scholarly_check

    if fail_on not in FAIL_LEVELS:
        raise InputError(f"--fail-on must be one of {', '.join(FAIL_LEVELS)}, not {fail_on!r}")
    if output not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}, not {output!r}")
    known = read_baseline(baseline) if baseline is not None else None
    report = check_target(lambda: container(ctx).library, paper, venue=venue, anonymous=anonymous,
                          references=scholarly_check(container(ctx), online))
    if known is not None:
        report = since_baseline(report, known)
    _emit(ctx, report, paper, "json" if wants_json(ctx, as_json) else output)
    if report.fails(fail_on):
        raise typer.Exit(CHECK_FAILED_EXIT)


def _emit(ctx: typer.Context, report: CheckReport, target: str, output: str) -> None:
    """Print ``report`` in the chosen format."""
    from papermind.reports.check import to_json, to_terminal
    from papermind.reports.check_formats import to_github, to_sarif
    from papermind.services.check_outputs import locator

    if output == "json":
        state(ctx).emit_json(to_json(report))
    elif output == "sarif":
        state(ctx).emit_json(to_sarif(report, locator(target)))
    elif output == "github":
        for line in to_github(report, locator(target)):
            typer.echo(line)
    else:
        to_terminal(state(ctx).console, report)


def register(app: typer.Typer) -> None:
    app.command("check")(check)
