"""Evaluation use cases for the interfaces: plan (cost estimate), run or resume, compare.

A finished run writes ``<home>/eval/reports/<run id>/report.html`` and ``summary.json``;
its headline metrics are checked against the last finished run with the same options, and a
drop of more than five points is returned as a flag line (the CLI exits non-zero on one).
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papermind.domain.workflows import BY_EVALUATION
from papermind.errors import InputError
from papermind.evaluation.compare import compare_items, report_lines
from papermind.evaluation.report import render
from papermind.evaluation.runs.loop import Estimate, Evaluation, estimate, run_evaluation
from papermind.evaluation.runs.qa import regressions
from papermind.evaluation.runs.store import EvalItem, EvalRun, EvalRunStore
from papermind.llm import Gateway
from papermind.services.container import Container
from papermind.services.language import output_language

KINDS = tuple(BY_EVALUATION)
"""`papermind eval` names, one per row of the workflow table."""
SAME_OPTIONS = ("dataset", "deep", "reviewers", "flaws", "data", "questions")


@dataclass
class EvalRequest:
    """What to evaluate: the kind and its options (a resumed run takes its stored ones)."""

    kind: str
    data: Path | None = None
    dataset: str = "qasper"
    deep: bool = False
    questions: Path | None = None
    reviewers: str = "minimal"
    flaws: bool = False
    language: str | None = None
    """The report's language (``--lang``); None: the ``language`` setting."""


@dataclass
class EvalOutcome:
    run: EvalRun
    items: list[EvalItem]
    ran: int
    stopped: str = ""
    flags: list[str] = field(default_factory=list)
    report: Path | None = None


def shared_data() -> Path:
    """$PAPERMIND_SHARED_DATA, else the nearest ``shared/data`` above the working folder."""
    if os.environ.get("PAPERMIND_SHARED_DATA"):
        return Path(os.environ["PAPERMIND_SHARED_DATA"])
    for base in [Path.cwd(), *Path.cwd().parents]:
        if (base / "shared" / "data").is_dir():
            return base / "shared" / "data"
        if (base / "data" / "iclr_bench").is_dir():
            return base / "data"
    raise InputError("shared data not found: give --data DIR or set PAPERMIND_SHARED_DATA")


def harness(name: str) -> Any:
    """The harness of `papermind eval <name>`: ``evaluation.runs.<name>``, whose
    ``evaluation(container, gateway, request, data)`` makes the Evaluation."""
    if name not in BY_EVALUATION:
        raise InputError(f"unknown evaluation {name!r}; use {', '.join(BY_EVALUATION)}")
    return importlib.import_module(f"papermind.evaluation.runs.{name}")


def build(container: Container, gateway: Gateway, request: EvalRequest) -> Evaluation:
    """The Evaluation for a request (imports the workflow stack it needs)."""
    data = request.data or shared_data()
    made: Evaluation = harness(request.kind).evaluation(container, gateway, request,
                                                                  data)
    return made


def stored_request(run: EvalRun) -> EvalRequest:
    """The request a stored run was started with (to resume it as it was)."""
    s = run.settings
    return EvalRequest(kind=run.kind, data=Path(s["data"]) if s.get("data") else None,
                       dataset=s.get("dataset", "qasper"), deep=bool(s.get("deep")),
                       questions=Path(s["questions"]) if s.get("questions") else None,
                       reviewers=s.get("reviewers", "minimal"), flaws=bool(s.get("flaws")))


def plan(container: Container, request: EvalRequest, *, limit: int | None = None,
         gateway: Gateway | None = None) -> Estimate:
    """Items, tokens and cost the run would take (nothing is called)."""
    gateway = gateway or container.gateway
    evaluation = build(container, gateway, request)
    items = evaluation.items()[:limit] if limit else evaluation.items()
    return estimate(evaluation, items, gateway)


async def evaluate(container: Container, request: EvalRequest, *, limit: int | None = None,
                   budget_tokens: int | None = None, resume: str | None = None,
                   gateway: Gateway | None = None,
                   on_item: Callable[[EvalItem], None] | None = None) -> EvalOutcome:
    """Run (or resume run ``resume``), then write the report and check for regressions."""
    store = EvalRunStore(container.db)
    lang = output_language(request.language, container.settings.language)
    if resume:
        request = stored_request(store.get(resume))
        resume = store.get(resume).id
    gateway = gateway or container.gateway
    evaluation = build(container, gateway, request)
    result = await run_evaluation(store, evaluation, gateway, run_id=resume,
                                  resume=resume is not None, limit=limit,
                                  budget_tokens=budget_tokens, on_item=on_item)
    run = result.run
    same = {k: run.settings.get(k) for k in SAME_OPTIONS if k in run.settings}
    previous = store.latest(run.kind, before=run.id, same=same)
    flags = regressions(run.summary, previous.summary if previous else None)
    if previous is not None and flags:
        flags.append(f"(against run {previous.id} of {previous.created_at})")
    folder = container.settings.home_dir / "eval" / "reports" / run.id
    report = write_report(folder, run, result.items, flags, lang)
    return EvalOutcome(run, result.items, result.ran, result.stopped, flags, report)


def write_report(folder: Path, run: EvalRun, items: list[EvalItem], flags: list[str],
                 lang: str = "en") -> Path:
    """summary.json and report.html (its labels in ``lang``) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"id": run.id, "kind": run.kind, "created_at": run.created_at,
            "status": run.status, "settings": run.settings, "summary": run.summary}
    (folder / "summary.json").write_text(json.dumps({**data, "flags": flags}, indent=2,
                                                    default=str), encoding="utf-8")
    page = folder / "report.html"
    page.write_text(render(data, [i.result for i in items], flags, lang), encoding="utf-8")
    return page


def compare(container: Container, run_a: str, run_b: str) -> tuple[list[str], bool]:
    """Lines comparing two stored runs item by item, and whether any metric was flagged."""
    store = EvalRunStore(container.db)
    a, b = store.get(run_a), store.get(run_b)
    if a.kind != b.kind:
        raise InputError(f"run {a.id} is {a.kind} and run {b.id} is {b.kind}: not comparable")
    deltas = compare_items(_scores(store.items(a.id)), _scores(store.items(b.id)))
    if not deltas:
        raise InputError(f"runs {a.id} and {b.id} share no scored item")
    return report_lines(deltas, a.id, b.id), any(d.flagged for d in deltas)


def list_runs(container: Container, kind: str | None = None) -> list[EvalRun]:
    return EvalRunStore(container.db).runs(kind)


def _scores(items: list[EvalItem]) -> dict[str, dict[str, Any]]:
    return {i.item_id: i.result.get("scores", {}) for i in items}
