"""`papermind verify PAPER --claim TEXT (--lines P:L[-L] | --quote TEXT)`: does the paper
back this claim? Prints both verdicts (found, support) with reasons. Exit 0 when the claim
stands as far as the checks that ran can tell (found and no code check failed; with
--judge, found and supported), 1 otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag

if TYPE_CHECKING:  # the services and the LLM stack load when the command runs, not for --help
    from papermind.llm import Gateway
    from papermind.services.container import Container
    from papermind.services.verification import VerifyResult

NOT_VERIFIED_EXIT = 1
"""Special to this command (not in the error table): an unsupported claim is data."""


def verify(
    ctx: typer.Context,
    paper: Annotated[str, typer.Argument(
        metavar="PAPER", help="Library id (or unique prefix), or a file path (parsed, not stored).")],
    claim: Annotated[str, typer.Option("--claim", help="The claim to check.")],
    lines: Annotated[str, typer.Option(
        "--lines", metavar="P:L[-L]", help="The cited lines, e.g. 3:12-14 or 3:40-4:2.")] = "",
    quote: Annotated[str, typer.Option(
        "--quote", help="A quote of the paper (alone: located; with --lines: checked there).")] = "",
    judge: Annotated[bool, typer.Option(
        "--judge", help="Also ask the checker model (through the gateway) after the code checks.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Check a claim against the cited lines of a paper: found? supported? (code checks,
    and the checker model with --judge).

    Without --judge only code checks run: the cited lines exist (or the quote is found),
    and the claim's numbers, percentages, dataset / metric / method names, negation and
    comparison direction agree with them. Exit 0 when found and no check failed (code
    never says 'supported'); with --judge, 0 only when the checker model also says
    supported. Exit 1 when not found, contradicted or not enough."""
    from papermind.services.verification import verify_claim, verify_json

    box = container(ctx)
    result = verify_claim(box.library, paper, claim, lines=lines, quote=quote,
                          gateway=judge_gateway(box) if judge else None)
    if wants_json(ctx, as_json):
        state(ctx).emit_json(verify_json(result))
    else:
        print_result(state(ctx).console, result)
    if not stands(result):
        raise typer.Exit(NOT_VERIFIED_EXIT)


def judge_gateway(box: Container) -> Gateway:
    """The gateway the checker runs on (a seam tests replace)."""
    return box.gateway


def print_result(console: Console, result: VerifyResult) -> None:
    e = result.evidence
    console.print(f"Claim: {escape(e.claim)}")
    if e.found and e.anchor is not None:
        console.print(f"found: yes, {e.anchor.label()}" + (f" (cited {e.cited})" if e.cited else ""))
    else:
        console.print("found: NO — " + escape("; ".join(e.reasons) or "not in the paper"))
    for line in result.lines:
        console.print(f"  p. {line.page:>3}, l. {line.n:>3} | {escape(line.text)}")
    code = result.code
    console.print("support (code): " + escape(_verdict(code) if code.by else
                                              "no check failed (code cannot confirm support)"))
    if result.judged:
        console.print("support (checker): " + escape(_checker(e.support)))
    for note in [*e.notes, *result.notes]:
        console.print(f"  note: {escape(note)}")
    console.print(f"[bold]{escape(outcome_label(result))}[/]")


def stands(result: VerifyResult) -> bool:
    """Verified; or, without the judge, found with no code check failed."""
    e = result.evidence
    return e.verified or (not result.judged and e.found and e.support.verdict == "unchecked")


def outcome_label(result: VerifyResult) -> str:
    """The last line: the shared status label, except that an unjudged claim that passed
    every code check says so (and how to have its support judged)."""
    from papermind.reports import status_label

    e = result.evidence
    if not result.judged and e.found and e.support.verdict == "unchecked":
        return "found · code checks passed (support not judged: add --judge)"
    if result.judged and e.found and e.support.verdict == "unchecked":
        return "found · support unchecked (the checker gave no readable verdict)"
    return status_label(e)


def _checker(support: Any) -> str:
    if support.by == "code":
        return "not asked: code already lowered it"
    if support.verdict == "unchecked":
        return "no readable verdict; support stays unchecked"
    return _verdict(support)


def _verdict(support: Any) -> str:
    verdict = support.verdict.replace("_", " ")
    return f"{verdict} ({support.by}: {support.reason})" if support.reason else \
        f"{verdict} ({support.by})"


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
