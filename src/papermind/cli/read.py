"""``papermind read``: deep reading of one paper with live progress per node."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.status import Status

from papermind.cli.context import container, show_run, state
from papermind.cli.options import Lang, OutDir, PaperToAdd, ReportJsonFlag, ResumeJob
from papermind.errors import BudgetExceededError, ProviderError
from papermind.services.loops import run_loop

if TYPE_CHECKING:  # the workflow stack is imported when the command runs, not for --help
    from papermind.services.container import Container
    from papermind.services.workflow_runs import ProgressCallback


def read(
    ctx: typer.Context,
    paper: PaperToAdd,
    as_json: ReportJsonFlag = False,
    out: OutDir = None,
    job: ResumeJob = None,
    lang: Lang = None,
) -> None:
    """Deep-read a paper: method, math steps and experiments, each point checked against the
    paper's text (page and line), one rewrite when credibility is low, then deep questions."""
    from papermind.services.paper_lookup import resolve_paper
    from papermind.services.reading import read_paper
    from papermind.services.recorded_jobs import job_request, run_as_job

    cli = state(ctx)
    box = container(ctx)
    job_id = job or uuid.uuid4().hex
    paper_id = resolve_paper(box.library, paper).id
    request = job_request(kind="reading", paper_id=paper_id, language=lang)
    estimate_line(cli.err, box, "reading")
    try:
        with cli.err.status("starting deep reading...") as status:
            run = run_loop(run_as_job(
                box, request, job_id, lambda progress: read_paper(
                    box, paper_id, job_id=job_id, out_dir=out, progress=progress, language=lang),
                progress=_progress(cli.err, status)))
    except (ProviderError, BudgetExceededError):
        cli.err.print(f"job {job_id} stopped; completed steps are saved. Resume with: "
                      f"papermind read {paper} --job {job_id}", highlight=False)
        raise
    show_run(ctx, run, as_json)


def estimate_line(err: Console, box: Container, kind: str) -> None:
    """Before a long local run: "about N minutes on this machine" (measured, never guessed)."""
    from papermind.services.run_estimate import announce

    said = announce(box.db, box.gateway, kind)
    if said:
        err.print(said, highlight=False, markup=False)


def _progress(err: Console, status: Status) -> ProgressCallback:
    def show(node: str, info: dict[str, object]) -> None:
        if info.get("event") == "started":
            mode = f" ({info['mode']})" if info.get("mode") else ""
            status.update(f"[cyan]{node}[/]{mode} running...")
        elif info.get("event") == "progress":
            status.update(f"[cyan]{node}[/] running: {info.get('summary', '')}")
        else:
            err.print(f"[green]done[/] {node} [dim]{info.get('seconds', '')} s[/] "
                      f"{info.get('summary', '')}", highlight=False)
    return show


def register(app: typer.Typer) -> None:
    app.command("read")(read)
