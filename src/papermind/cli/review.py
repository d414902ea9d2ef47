"""``papermind review``: a multi-agent pre-submission review panel with live progress."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from papermind.cli.context import container, show_run, state
from papermind.cli.options import Lang, Online, OutDir, PaperToAdd, ReportJsonFlag, ResumeJob
from papermind.cli.read import estimate_line
from papermind.services.loops import run_loop

if TYPE_CHECKING:  # the workflow stack is imported when the command runs, not for --help
    from papermind.domain.job import JobRequest
    from papermind.services.review import Reviewers, ReviewRun
    from papermind.services.workflow_runs import ProgressCallback


def review(
    ctx: typer.Context,
    paper: PaperToAdd,
    as_json: ReportJsonFlag = False,
    out: OutDir = None,
    reviewers: Annotated[str, typer.Option(
        "--reviewers", help="'full': the whole panel (editor, every reviewer, devil's "
                            "advocate, meta-reviewer); 'minimal': editor, two reviewers and "
                            "meta-reviewer (small budgets).")] = "full",
    signoff: Annotated[bool, typer.Option(
        "--signoff", help="Ask for a human sign-off before the run ends.")] = False,
    job: ResumeJob = None,
    lang: Lang = None,
    online: Online = False,
) -> None:
    """Pre-review a paper with a panel of agents; every comment cites page and line, with
    whether code found those lines and whether they support it.

    An editor, reviewers who each see only their sections (contribution, methodology,
    experiments, reproducibility...), a devil's advocate and a meta-reviewer. A pre-review
    aid, never a decision."""
    from papermind.services.paper_lookup import resolve_paper
    from papermind.services.recorded_jobs import job_request, run_as_job
    from papermind.services.review import review_paper

    if reviewers not in ("minimal", "full"):
        raise typer.BadParameter("use 'minimal' or 'full'", param_hint="--reviewers")
    cli = state(ctx)
    box = container(ctx)
    panel: Reviewers = "full" if reviewers == "full" else "minimal"
    paper_id = resolve_paper(box.library, paper).id
    job_id = job or uuid.uuid4().hex
    request = job_request(kind="review", paper_id=paper_id, reviewers=panel, language=lang)
    estimate_line(cli.err, box, "review")
    with cli.err.status("starting the review panel..."):
        run = run_loop(run_as_job(box, request, job_id, lambda progress: review_paper(
            box, paper_id, reviewers=panel, job_id=job_id, out_dir=out, progress=progress,
            signoff=signoff or None, language=lang, online=online),
            progress=_progress(cli.err)))
    if run.status == "interrupted":
        run = _sign_off(ctx, run, request, out, lang)
    show_run(ctx, run, as_json)


def _sign_off(ctx: typer.Context, run: ReviewRun, request: JobRequest, out: Path | None,
              lang: str | None) -> ReviewRun:
    cli = state(ctx)
    from papermind.services.report_view import verdict_line

    cli.err.print(f"recommendation: {verdict_line(run.report)}; scores "
                  f"{[(s.name or s.reviewer, s.final) for s in run.report.scores]}",
                  highlight=False, markup=False)
    from papermind.services.recorded_jobs import end_job, run_as_job
    from papermind.services.review import review_paper

    box = container(ctx)
    try:
        approved = typer.confirm("Sign off this pre-review report?", default=True, err=True)
        note = typer.prompt("Note (optional)", default="", show_default=False, err=True)
    except (typer.Abort, KeyboardInterrupt, EOFError):  # Ctrl-C / Ctrl-D at the prompt
        end_job(box.job_leases, run.job_id, "cancelled", "the sign-off was aborted at its "
                "prompt; run the review again to get a new report")
        cli.err.print(f"sign-off aborted: job {run.job_id} cancelled")
        raise
    return run_loop(run_as_job(box, request, run.job_id, lambda progress: review_paper(
        box, run.report.paper_id, reviewers=request.reviewers, job_id=run.job_id, out_dir=out,
        signoff=True, resume={"approved": approved, "note": note}, progress=progress,
        language=lang), progress=_progress(cli.err), own=True))


def _progress(err: Console) -> ProgressCallback:
    def show(node: str, info: dict[str, object]) -> None:
        err.print(f"[green]done[/] {node} [dim]{info.get('seconds', '')} s[/] "
                  f"{info.get('summary', '')}", highlight=False)
    return show


def register(app: typer.Typer) -> None:
    app.command("review")(review)
