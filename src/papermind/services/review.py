"""Review-panel use case: resolve the paper, run the panel under a durable checkpointer
(thread id = job id), assemble and write the report. Used by the CLI and the REST API's jobs."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from papermind.config import Settings
from papermind.domain import Paper
from papermind.domain.review import ReviewReport
from papermind.errors import InputError
from papermind.llm import Gateway
from papermind.services.checkpoints import sqlite_checkpointer
from papermind.services.container import Container
from papermind.services.language import output_language
from papermind.services.reading import gateway_for, resolve_paper
from papermind.services.report_files import write_report_files
from papermind.services.runner import RunStatus, run_graph
from papermind.workflows.ports import Grounder, ProgressCallback
from papermind.workflows.review import FULL_PANEL, ReviewContext, build_graph
from papermind.workflows.review.render import to_html, to_json, to_markdown
from papermind.workflows.review.report import build_report
from papermind.workflows.review.views import section_groups

Reviewers = Literal["minimal", "full"]
PROMPT_RESERVE = 1100
"""Tokens kept for a reviewer's instructions, its JSON schema and the editor's task."""
CHARS_PER_TOKEN = 3
MAX_INPUT_CHARS = 24000
PANEL_ROLES = {"editor": "editor", "contribution_reviewer": "contribution_reviewer",
               "methodology_reviewer": "methodology_reviewer",
               "experiment_reviewer": "experiment_reviewer", "devil": "devil", "meta": "meta"}


def panel_for(paper: Paper, reviewers: Reviewers) -> list[str]:
    """``full``: everyone; ``minimal``: editor, contribution + one more reviewer, meta.

    The second minimal reviewer is the experiment reviewer when the paper has experiment
    sections, else the methodology reviewer.
    """
    if reviewers == "full":
        return list(FULL_PANEL)
    if reviewers != "minimal":
        raise InputError(f"unknown reviewer set {reviewers!r}; use 'minimal' or 'full'")
    has_experiments = "experiment" in section_groups(paper).values()
    second = "experiment_reviewer" if has_experiments else "methodology_reviewer"
    return ["editor", "contribution_reviewer", second, "meta"]


def input_chars(settings: Settings, gateway: Gateway) -> int:
    """Paper characters per reviewer: the setting, else what the reviewer's window allows."""
    if settings.workflows.review_input_chars:
        return settings.workflows.review_input_chars
    role = gateway.resolve("methodology_reviewer")
    window = role.window
    room = min(role.max_tokens, window // 4)
    return max(1200, min(MAX_INPUT_CHARS, (window - room - PROMPT_RESERVE) * CHARS_PER_TOKEN))


def review_context(settings: Settings, gateway: Gateway, grounder: Grounder, *,
                   signoff: bool | None = None) -> ReviewContext:
    """The graph's runtime context from settings and collaborators."""
    knobs = settings.workflows
    return ReviewContext(
        gateway=gateway, grounder=grounder,
        second_round_threshold=knobs.review_second_round_threshold,
        max_rounds=knobs.review_max_rounds,
        signoff=knobs.review_signoff if signoff is None else signoff,
        input_chars=input_chars(settings, gateway), max_comments=knobs.review_max_comments,
        unverified_weight=knobs.review_unverified_weight)


@dataclass
class ReviewRun:
    """A review job's outcome: its report, status, and files written (if any)."""

    report: ReviewReport
    job_id: str
    status: RunStatus = "completed"
    interrupt: Any = None
    files: list[Path] = field(default_factory=list)


async def run_review(paper: Paper, *, settings: Settings, gateway: Gateway, grounder: Grounder,
                     job_id: str, checkpoint_db: Path, reviewers: Reviewers = "full",
                     progress: ProgressCallback | None = None, signoff: bool | None = None,
                     resume: Any = None, language: str | None = None) -> ReviewRun:
    """Run (or resume) job ``job_id``; ``resume`` answers a pending sign-off interrupt;
    comments are written in ``language`` (default the setting)."""
    lang = output_language(language, settings.language)
    bound = gateway.bind(job_id=job_id, language=lang)
    context = review_context(settings, bound, grounder, signoff=signoff)
    inputs = {"paper": paper, "panel": panel_for(paper, reviewers)}
    async with sqlite_checkpointer(checkpoint_db) as saver:
        result = await run_graph(build_graph(), inputs, thread_id=job_id, checkpointer=saver,
                                 context=context, on_node=_listener(progress), resume=resume)
    report = build_report(result.state, models=_models(bound, result.state.get("panel", [])),
                          usage=_usage(bound), demo_quality=bound.is_demo_quality)
    report = report.model_copy(update={"language": lang})
    return ReviewRun(report, job_id, result.status, result.interrupt)


def _listener(progress: ProgressCallback | None) -> Any:
    started = {"at": time.perf_counter()}

    def on_node(node: str, delta: Mapping[str, Any]) -> None:
        if progress is None:
            return
        history = delta.get("history") or []
        summary = history[-1].get("summary", "") if history else ""
        progress(node, {"event": "finished", "summary": summary,
                        "seconds": round(time.perf_counter() - started["at"], 1)})
        started["at"] = time.perf_counter()
    return on_node


def _models(gateway: Gateway, panel: list[str]) -> dict[str, str]:
    """The model of every panel role, and of the checker that judges support."""
    models = {PANEL_ROLES[m]: gateway.model_for(PANEL_ROLES[m]) for m in panel if m in PANEL_ROLES}
    return {**models, "checker": gateway.model_for("checker")}


def _usage(gateway: Gateway) -> dict[str, Any]:
    total = gateway.usage.total()
    return {"tokens_in": total.tokens_in, "tokens_out": total.tokens_out,
            "cost_usd": round(total.cost_usd, 6), "calls": total.calls,
            "by_node": {node: u.to_dict() for node, u in gateway.usage.by_node().items()}}


async def review_paper(container: Container, paper: str | Path, *, reviewers: Reviewers = "full",
                       job_id: str | None = None, out_dir: Path | None = None,
                       progress: ProgressCallback | None = None, gateway: Gateway | None = None,
                       signoff: bool | None = None, resume: Any = None,
                       language: str | None = None) -> ReviewRun:
    """The whole use case; writes report.json/.md/.html to ``out_dir`` (default
    ``<home>/reports/<job id>/``) once the run has a meta-review."""
    stored = resolve_paper(container.library, paper)
    job = job_id or uuid.uuid4().hex
    run = await run_review(stored, settings=container.settings,
                           gateway=gateway or gateway_for(container), grounder=container.grounder,
                           job_id=job, checkpoint_db=container.settings.checkpoint_path,
                           reviewers=reviewers, progress=progress, signoff=signoff, resume=resume,
                           language=language)
    folder = out_dir if out_dir is not None else container.settings.home_dir / "reports" / job
    run.files = write_reports(run.report, folder)
    return run


def write_reports(report: ReviewReport, folder: Path) -> list[Path]:
    """report.json, report.md and report.html in ``folder`` (created if needed)."""
    return write_report_files(
        folder, json_text=json.dumps(to_json(report), ensure_ascii=False, indent=2),
        markdown=to_markdown(report), html=to_html(report))
