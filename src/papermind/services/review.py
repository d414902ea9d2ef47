"""Review-panel use case: resolve the paper, run the panel under the durable checkpointer
(thread id = job id), assemble and write the report (the shape of services/workflow_runs.py).
Used by the CLI and the REST API's jobs (``run_job``, the workflow table's contract)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from papermind.config import Settings
from papermind.domain import Paper
from papermind.domain.job import Job
from papermind.domain.review import ReviewReport
from papermind.errors import InputError
from papermind.llm import Gateway
from papermind.services.language import output_language
from papermind.services.paper_checks import check_stored
from papermind.services.paper_lookup import resolve_paper
from papermind.services.report_files import write_reports
from papermind.services.runner import RunStatus
from papermind.services.workflow_runs import (
    PaperRunParts,
    ProgressCallback,
    gateway_for,
    report_folder,
    run_workflow,
    usage_summary,
)
from papermind.workflows.ports import Grounder
from papermind.workflows.review import FULL_PANEL, ReviewContext, build_graph
from papermind.workflows.review.context import RelatedWorkFinder
from papermind.workflows.review.finding_comments import comment_findings
from papermind.workflows.review.panel import minimal_panel
from papermind.workflows.review.report import build_report, offline_report
from papermind.workflows.review.views import section_groups

if TYPE_CHECKING:
    from papermind.scholar.cache import ScholarCache

Reviewers = Literal["minimal", "full"]
PROMPT_RESERVE = 1100
"""Tokens kept for a reviewer's instructions, its JSON schema and the editor's task."""
CHARS_PER_TOKEN = 3
MAX_INPUT_CHARS = 24000


class ReviewParts(PaperRunParts, Protocol):
    """What a review needs (the container provides it)."""

    @property
    def scholar_cache(self) -> ScholarCache: ...


def panel_for(paper: Paper, reviewers: Reviewers) -> list[str]:
    """``full``: everyone of the panel table; ``minimal``: see ``minimal_panel``."""
    if reviewers == "full":
        return list(FULL_PANEL)
    if reviewers != "minimal":
        raise InputError(f"unknown reviewer set {reviewers!r}; use 'minimal' or 'full'")
    return minimal_panel("experiment" in section_groups(paper).values())


def input_chars(settings: Settings, gateway: Gateway) -> int:
    """Paper characters per reviewer: the setting, else what the reviewer's window allows."""
    if settings.workflows.review_input_chars:
        return settings.workflows.review_input_chars
    role = gateway.resolve("methodology_reviewer")
    window = role.window
    room = min(role.max_tokens, window // 4)
    return max(1200, min(MAX_INPUT_CHARS, (window - room - PROMPT_RESERVE) * CHARS_PER_TOKEN))


def review_context(settings: Settings, gateway: Gateway, grounder: Grounder, *,
                   signoff: bool | None = None,
                   related_work: RelatedWorkFinder | None = None) -> ReviewContext:
    """The graph's runtime context from settings and collaborators (``related_work``: the
    scholarly sources, online only)."""
    knobs = settings.workflows
    return ReviewContext(
        related_work=related_work,
        gateway=gateway, grounder=grounder,
        second_round_threshold=knobs.review_second_round_threshold,
        max_rounds=knobs.review_max_rounds,
        signoff=knobs.review_signoff if signoff is None else signoff,
        input_chars=input_chars(settings, gateway), max_comments=knobs.review_max_comments,
        unverified_weight=knobs.review_unverified_weight)


def related_finder(parts: ReviewParts, online: bool) -> RelatedWorkFinder | None:
    """The scholarly sources' related-work search when online, else None (nothing sent)."""
    scholar = parts.settings.scholar
    if not (scholar.enabled or online):
        return None
    from papermind.services.related_work import ScholarRelatedWork

    return ScholarRelatedWork(scholar, parts.scholar_cache)


@dataclass
class ReviewRun:
    """A review job's outcome: its report, status, and files written (if any)."""

    report: ReviewReport
    job_id: str
    status: RunStatus = "completed"
    interrupt: Any = None
    files: list[Path] = field(default_factory=list)


def _models(gateway: Gateway, panel: list[str]) -> dict[str, str]:
    """The model of every panel role, and of the checker that judges support."""
    models = {role: gateway.model_for(role) for role in panel}
    return {**models, "checker": gateway.model_for("checker")}


async def review_paper(parts: ReviewParts, paper: str | Path, *, reviewers: Reviewers = "full",
                       job_id: str | None = None, out_dir: Path | None = None,
                       progress: ProgressCallback | None = None, gateway: Gateway | None = None,
                       signoff: bool | None = None, resume: Any = None,
                       language: str | None = None, online: bool = False) -> ReviewRun:
    """The whole use case; writes report.json/.md/.html to ``out_dir`` (default
    ``<home>/reports/<job id>/``) once the run has a meta-review; comments in ``language``
    (default the 'language' setting). Online (``scholar.enabled`` or ``online``), the
    contribution reviewer also sees related work from the scholarly sources."""
    stored = resolve_paper(parts.library, paper)
    job = job_id or uuid.uuid4().hex
    lang = output_language(language, parts.settings.language)
    bound = (gateway or gateway_for(parts)).bind(job_id=job, language=lang)
    check = check_stored(stored)
    if bound.is_demo_quality:  # the bundled model scores nothing: the check is the review
        check, notes = await comment_findings(bound, check)
        report = offline_report(stored, check, models={"checker": "code",
                                                       "commenter": bound.model_for("commenter")},
                                usage=usage_summary(bound))
        report = report.model_copy(update={"language": lang,
                                           "warnings": [*report.warnings, *notes]})
        return ReviewRun(report, job, files=write_reports(
            report, report_folder(parts, job, out_dir)))
    context = review_context(parts.settings, bound, parts.grounder, signoff=signoff,
                             related_work=related_finder(parts, online))
    inputs = {"paper": stored, "panel": panel_for(stored, reviewers), "check": check}
    result = await run_workflow(parts, build_graph(), inputs, job_id=job, context=context,
                                progress=progress, resume=resume)
    report = build_report(result.state, models=_models(bound, result.state.get("panel", [])),
                          usage=usage_summary(bound), demo_quality=bound.is_demo_quality)
    report = report.model_copy(update={"language": lang})
    return ReviewRun(report, job, result.status, result.interrupt,
                     write_reports(report, report_folder(parts, job, out_dir)))


async def run_job(parts: ReviewParts, job: Job, progress: ProgressCallback,
                  gateway: Gateway | None) -> dict[str, Any]:
    """A review job (the workflow table's use-case contract; no sign-off pause); its usage."""
    run = await review_paper(parts, job.request.paper_id or "", reviewers=job.request.reviewers,
                             job_id=job.id, progress=progress, gateway=gateway, signoff=False,
                             language=job.request.language)
    return dict(run.report.usage)
