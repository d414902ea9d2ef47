"""``papermind ask``: cited answers from the library (single pass, or ``--deep``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from papermind.cli.context import container, show_run, state
from papermind.cli.filters import CollectionFilter, TagFilter, selected_papers
from papermind.cli.options import Lang, Online
from papermind.services.loops import run_loop

if TYPE_CHECKING:  # the workflow stack is imported when the command runs, not for --help
    from papermind.services.workflow_runs import ProgressCallback


def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="The question, in quotes.")],
    deep: Annotated[bool, typer.Option(
        "--deep", help="Plan sub-questions, search adaptively, check sufficiency and "
                       "contradictions before answering (slower).")] = False,
    paper: Annotated[list[str] | None, typer.Option(
        "--paper", help="Only this paper (id or unique prefix); repeatable.")] = None,
    tag: TagFilter = None,
    collection: CollectionFilter = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Folder for report.json, report.md and report.html "
                      "(default: <home>/reports/<job id>).")] = None,
    lang: Lang = None,
    online: Online = False,
) -> None:
    """Answer a question from your papers; every sentence cites text found in the papers
    (page and line) that supports it, or the answer says the evidence is insufficient."""
    from papermind.services.qa import ask_question
    from papermind.services.recorded_jobs import job_request, run_as_job

    cli = state(ctx)
    box = container(ctx)
    job_id = uuid.uuid4().hex
    paper_ids = list(selected_papers(ctx, paper, tag, collection) or ())
    request = job_request(kind="question", question=question, deep=deep, paper_ids=paper_ids,
                         language=lang)
    with cli.err.status("[cyan]starting...[/]") as status:
        run = run_loop(run_as_job(box, request, job_id, lambda progress: ask_question(
            box, question, deep=deep, out_dir=out, paper_ids=paper_ids, job_id=job_id,
            progress=progress, language=lang, online=online),
            progress=_progress(cli.err, status.update)))
    show_run(ctx, run, as_json, job_id_in_json=True)


def _progress(err: Console, update: Callable[..., None]) -> ProgressCallback:
    def show(node: str, info: dict[str, object]) -> None:
        err.print(f"[green]done[/] {node}: {escape(str(info.get('summary', '')))}",
                  highlight=False)
        update(f"[cyan]after {node}...[/]")
    return show


def register(app: typer.Typer) -> None:
    app.command("ask")(ask)
