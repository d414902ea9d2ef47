"""``papermind eval review|qa|reading|compare|runs``: the evaluation harness.

Runs are stored in the library database; each prints its cost estimate before it starts,
can stop at a token budget, and resumes with ``--resume RUN_ID`` (also after a kill).
Exit code 8: a headline metric fell more than five points against the last stored run
(or, for ``compare``, run B is more than five points worse than run A on some metric).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from papermind.cli.context import container, state, wants_json
from papermind.cli.options import JsonFlag
from papermind.services.loops import run_loop

if TYPE_CHECKING:  # the workflow stack loads when a command runs, not for --help
    from papermind.evaluation.runs.jobs import EvalItem, EvalRequest

REGRESSION_EXIT = 8
eval_app = typer.Typer(help="Evaluate review, QA and reading against gold data; compare runs.",
                       no_args_is_help=True)

Limit = Annotated[int | None, typer.Option("--limit", help="First N items only.")]
Budget = Annotated[int | None, typer.Option(
    "--budget", help="Stop once the run has used this many tokens (resume continues it).")]
Resume = Annotated[str | None, typer.Option(
    "--resume", metavar="RUN_ID", help="Continue a stored run where it stopped.")]
Data = Annotated[Path | None, typer.Option(
    "--data", help="Shared data folder (default: $PAPERMIND_SHARED_DATA or ../shared/data).")]
EstimateOnly = Annotated[bool, typer.Option(
    "--estimate", help="Print the cost estimate and stop.")]
ReportLang = Annotated[str | None, typer.Option(
    "--lang", help="Language of the HTML report's labels: en, zh, ... "
                   "Default: the 'language' setting.")]


@eval_app.command("review")
def review(ctx: typer.Context, data: Data = None, limit: Limit = None, budget: Budget = None,
           resume: Resume = None, estimate_only: EstimateOnly = False, as_json: JsonFlag = False,
           reviewers: Annotated[str, typer.Option(
               "--reviewers", help="'minimal' or 'full' panel.")] = "minimal",
           flaws: Annotated[bool, typer.Option(
               "--flaws", help="Plant five known flaws in each paper and score their recall "
                               "(by code alone and by the panel).")] = False,
           lang: ReportLang = None) -> None:
    """The review panel against ICLR outcomes: decision accuracy, balanced accuracy, AUC,
    Pearson/Spearman with the mean human rating, per role, with bootstrap intervals."""
    from papermind.evaluation.runs.jobs import EvalRequest

    _run(ctx, EvalRequest("review", data=data, reviewers=reviewers, flaws=flaws,
                          language=lang), limit, budget, resume, estimate_only, as_json)


@eval_app.command("qa")
def qa(ctx: typer.Context, data: Data = None, limit: Limit = None, budget: Budget = None,
       resume: Resume = None, estimate_only: EstimateOnly = False, as_json: JsonFlag = False,
       dataset: Annotated[str, typer.Option(
           "--dataset", help="qasper (token F1, evidence recall, unanswerable), pubmedqa "
                             "(yes/no/maybe accuracy, macro-F1) or regression.")] = "qasper",
       questions: Annotated[Path | None, typer.Option(
           "--questions", help="Question set for --dataset regression.")] = None,
       deep: Annotated[bool, typer.Option("--deep", help="Deep QA (plan and loop).")] = False,
       lang: ReportLang = None) -> None:
    """Question answering against gold answers, evidence and labels."""
    from papermind.evaluation.runs.jobs import EvalRequest

    _run(ctx, EvalRequest("qa", data=data, dataset=dataset, questions=questions, deep=deep,
                          language=lang), limit, budget, resume, estimate_only, as_json)


@eval_app.command("reading")
def reading(ctx: typer.Context, data: Data = None, limit: Limit = None, budget: Budget = None,
            resume: Resume = None, estimate_only: EstimateOnly = False,
            as_json: JsonFlag = False, lang: ReportLang = None) -> None:
    """Deep readings: share of points with a found anchor and with support 'supported',
    credibility, rewrites and tokens per paper, and their distributions."""
    from papermind.evaluation.runs.jobs import EvalRequest

    _run(ctx, EvalRequest("reading", data=data, language=lang), limit, budget, resume,
         estimate_only, as_json)


@eval_app.command("compare")
def compare(ctx: typer.Context,
            run_a: Annotated[str, typer.Argument(metavar="RUN_A", help="Baseline run id.")],
            run_b: Annotated[str, typer.Argument(metavar="RUN_B", help="Run to compare.")],
            as_json: JsonFlag = False) -> None:
    """Per-metric differences of two runs on their shared items, with paired p-values."""
    from papermind.evaluation.runs.jobs import compare as compare_runs

    lines, flagged = compare_runs(container(ctx), run_a, run_b)
    if wants_json(ctx, as_json):
        state(ctx).emit_json({"run_a": run_a, "run_b": run_b, "lines": lines,
                              "regressions": flagged})
    else:
        for line in lines:
            typer.echo(line)
    if flagged:
        raise typer.Exit(REGRESSION_EXIT)


@eval_app.command("runs")
def runs(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List the stored evaluation runs."""
    from papermind.evaluation.runs.jobs import list_runs

    stored = list_runs(container(ctx))
    if wants_json(ctx, as_json):
        state(ctx).emit_json([{"id": r.id, "kind": r.kind, "created_at": r.created_at,
                               "status": r.status, "summary": r.summary} for r in stored])
        return
    for r in stored:
        typer.echo(f"{r.id}  {r.kind:8s} {r.status:9s} {r.created_at}  "
                   f"{r.settings.get('dataset', '') or r.settings.get('reviewers', '')}")


def _run(ctx: typer.Context, request: EvalRequest, limit: int | None, budget: int | None,
         resume: str | None, estimate_only: bool, as_json: bool) -> None:
    from papermind.evaluation.runs.jobs import evaluate, plan

    cli = state(ctx)
    box = container(ctx)
    if resume is None:
        cli.err.print(f"estimate: {plan(box, request, limit=limit).text()}", highlight=False)
        if estimate_only:
            return
    outcome = run_loop(evaluate(box, request, limit=limit, budget_tokens=budget,
                                resume=resume, on_item=_progress(cli.err.print)))
    if wants_json(ctx, as_json):
        cli.emit_json({"id": outcome.run.id, "status": outcome.run.status,
                       "summary": outcome.run.summary, "flags": outcome.flags,
                       "report": str(outcome.report)})
    else:
        _print(outcome.run.summary, outcome.run.id)
    if outcome.stopped:
        cli.err.print(f"stopped: {outcome.stopped}; continue with --resume {outcome.run.id}")
    cli.err.print(f"wrote {outcome.report}")
    for flag in outcome.flags:
        typer.echo(flag)
    if outcome.flags:
        raise typer.Exit(REGRESSION_EXIT)


def _progress(echo: Callable[..., None]) -> Callable[[EvalItem], None]:
    def show(item: EvalItem) -> None:
        scores = " ".join(f"{k}={v:.2f}" for k, v in item.result.get("scores", {}).items()
                          if isinstance(v, int | float))
        echo(f"[green]done[/] {item.item_id} {item.seconds:.1f} s {item.tokens} tok {scores}",
             highlight=False)
    return show


def _print(summary: dict[str, object], run_id: str) -> None:
    from papermind.evaluation.report import number

    typer.echo(f"run {run_id}")
    metrics = summary.get("metrics", {})
    for name, value in (metrics.items() if isinstance(metrics, dict) else []):
        spread = (f" [{number(value['low'])}, {number(value['high'])}]" if "low" in value
                  else f" (median {number(value['median'])})" if "median" in value else "")
        typer.echo(f"  {name:22s} {number(value.get('value'))}{spread}")
    roles = summary.get("roles", {})
    for role, value in (roles.items() if isinstance(roles, dict) else []):
        typer.echo(f"  role {role:22s} AUC {number(value['auc']['value'])} "
                   f"r {number(value['pearson']['value'])} "
                   f"rho {number(value['spearman']['value'])}")
    flaws = summary.get("flaws")
    if isinstance(flaws, dict):
        typer.echo(f"  planted flaws {flaws['planted']}: code alone {number(flaws['code'])}, "
                   f"panel {number(flaws['panel'])}")
        for kind, value in flaws["by_kind"].items():
            typer.echo(f"    {kind:22s} code {number(value['code'])} panel "
                       f"{number(value['panel'])} (of {value['planted']})")
    published = summary.get("published")
    for ref in published if isinstance(published, list) else []:
        typer.echo(f"  theirs: {ref['metric']} {ref['value']} - {ref['who']} [{ref['source']}]")


def register(app: typer.Typer) -> None:
    app.add_typer(eval_app, name="eval")
