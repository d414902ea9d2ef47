"""`papermind check PAPER [--json] [--venue NAME] [--anonymous] [--fail-on LEVEL] [--online]`:
the model-free pre-submission check of a stored paper, a PDF / .txt / .md file, or a LaTeX
project (a folder with main.tex, or the main .tex). No model; no network unless --online
(or scholar.enabled): then the bibliography is also checked against the scholarly sources."""

from __future__ import annotations

from typing import Annotated

import typer

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag, Online
from papermind.errors import InputError

CHECK_FAILED_EXIT = 1
"""Special to this command (not in the error table): findings at or above --fail-on."""


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
    as_json: JsonFlag = False,
) -> None:
    """Check a paper before submission, by code alone: numbers vs tables, citations and
    bibliography, references to tables/figures/sections, instructions to reviewers,
    acronyms (and anonymity, venue requirements).

    With --online (or scholar.enabled) the bibliography is also checked against the
    scholarly sources: entries not found, with a wrong field, or retracted."""
    from papermind.services.checking import FAIL_LEVELS, check_target, scholarly_check

    if fail_on not in FAIL_LEVELS:
        raise InputError(f"--fail-on must be one of {', '.join(FAIL_LEVELS)}, not {fail_on!r}")
    report = check_target(lambda: container(ctx).library, paper, venue=venue, anonymous=anonymous,
                          references=scholarly_check(container(ctx), online))
    if wants_json(ctx, as_json):
        from papermind.reports.check import to_json

        state(ctx).emit_json(to_json(report))
    else:
        from papermind.reports.check import to_terminal

        to_terminal(state(ctx).console, report)
    if report.fails(fail_on):
        raise typer.Exit(CHECK_FAILED_EXIT)


def register(app: typer.Typer) -> None:
    app.command("check")(check)
