"""``papermind read``: deep reading of one paper with live progress per node."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.status import Status

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import Lang, OutDir, PaperToAdd, ReportJsonFlag
from papermind.errors import BudgetExceededError, ProviderError
from papermind.services.loops import run_loop

if TYPE_CHECKING:  # the workflow stack is imported when the command runs, not for --help
    from papermind.domain.reading import ReadingReport
    from papermind.services.reading import ReadingRun
    from papermind.services.workflow_runs import ProgressCallback


def read(
    ctx: typer.Context,
    paper: PaperToAdd,
    as_json: ReportJsonFlag = False,
    out: OutDir = None,
    job: Annotated[str | None, typer.Option(
        "--job", help="Job id: resume that job where it stopped (default: a new job).")] = None,
    lang: Lang = None,
) -> None:
    """Deep-read a paper: method, math steps and experiments, each point checked against the
    paper's text (page and line), one rewrite when credibility is low, then deep questions."""
    from papermind.services.reading import read_paper, resolve_paper
    from papermind.services.recorded_jobs import job_request, run_as_job
    from papermind.services.report_files import report_data

    cli = state(ctx)
    box = container(ctx)
    job_id = job or uuid.uuid4().hex
    paper_id = resolve_paper(box.library, paper).id
    request = job_request(kind="reading", paper_id=paper_id, language=lang)
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
    for path in run.files:
        cli.err.print(f"wrote {path}")
    if wants_json(ctx, as_json):
        cli.emit_json(report_data(run.report))
    else:
        _print_summary(cli.console, run)


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


def _print_summary(console: Console, run: ReadingRun) -> None:
    from papermind import reports
    from papermind.workflows.deep_reading.render import point_status

    r: ReadingReport = run.report
    if r.demo_quality:
        console.print(f"[yellow]{reports.DEMO_LABEL}[/]")
    v = r.verification
    console.print(f"[bold]{escape(r.title or r.paper_id)}[/]  credibility "
                  f"[bold]{r.credibility.upper()}[/], citations found {v.found}/{v.total}, "
                  f"supported {v.supported}/{v.total}, rewrites {r.rewrites}", highlight=False)
    for p in r.points:
        color = "green" if p.verified else "red" if p.verdict in (
            "not_found", "contradicted") else "yellow"
        text = f'"{p.text}"' if p.source == "extracted" else p.text
        console.print(f"{p.id} [{color}]{escape(point_status(p))}[/] {escape(text)}",
                      highlight=False)
        if p.explanation:
            console.print(f"    in plain words (model; code checked its words, not its "
                          f"meaning): {escape(p.explanation)}", highlight=False)
        for e in p.evidence:
            console.print(f"    {escape(reports.text(e, details=False))}", highlight=False,
                          style="dim")
    if r.questions:
        console.print("[bold]Questions[/]")
        for n, q in enumerate(r.questions, start=1):
            where = "; ".join([", ".join(q.builds_on), *(a.label() for a in q.anchors)])
            console.print(f"{n}. {escape(q.text)} [dim](builds on {escape(where)})[/]",
                          highlight=False)
    console.print(f"job {run.job_id}; tokens {r.usage.tokens_in} in / {r.usage.tokens_out} out",
                  highlight=False)


def register(app: typer.Typer) -> None:
    app.command("read")(read)
