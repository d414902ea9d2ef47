"""Deep reading use case: resolve the paper, run the graph under the durable
checkpointer, assemble and write the report (the shape of services/workflow_runs.py).
Used by the CLI and the REST API's jobs (``run_job``, the workflow table's contract)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from papermind.config import Settings
from papermind.domain.job import Job
from papermind.domain.reading import ReadingReport
from papermind.llm import Gateway
from papermind.llm.local import explains
from papermind.services.language import output_language
from papermind.services.paper_lookup import resolve_paper
from papermind.services.report_files import write_reports
from papermind.services.workflow_runs import (
    PaperRunParts,
    ProgressCallback,
    gateway_for,
    report_folder,
    run_workflow,
)
from papermind.workflows.deep_reading import ReadingContext, build_graph
from papermind.workflows.deep_reading.report import assemble_report

PROMPT_RESERVE = 1200
"""Tokens kept for instructions, and in a rewrite the previous analysis and the feedback."""
SCHEMA_RESERVE = 600
"""Extra tokens where the JSON schema travels inside the prompt (json_mode, local model)."""
SMALL_WINDOW = 8192


class ReadingParts(PaperRunParts, Protocol):
    """What a deep reading needs (the container provides it)."""


def reader_window(settings: Settings, gateway: Gateway) -> tuple[int, int]:
    """(paper-text budget, points per part) for the reader model's context window."""
    role = gateway.resolve("reader")
    window = role.window
    points = settings.workflows.reading_max_points
    if window <= SMALL_WINDOW:
        points = min(points, 2)
    if settings.workflows.reading_context_tokens:
        return settings.workflows.reading_context_tokens, points
    room = min(role.max_tokens, window // 4)
    reserve = PROMPT_RESERVE
    if role.kind.bundled or role.endpoint.structured_method == "json_mode":
        reserve += SCHEMA_RESERVE
    return max(256, window - room - reserve), points


@dataclass
class ReadingRun:
    """A finished deep reading: the report and where its files went (if written)."""

    report: ReadingReport
    job_id: str
    files: list[Path] = field(default_factory=list)


EXTRACTIVE_PASSAGES = 3
"""Passages per part (method, derivation, results) of an extractive reading."""


def extractive_reading(settings: Settings, gateway: Gateway) -> bool:
    """Whether the reading is built from passages code selects: with the bundled model, and
    whenever the reader's window is small (setting ``workflows.reading_mode``)."""
    mode = settings.workflows.reading_mode
    if mode != "auto":
        return mode == "extractive"
    role = gateway.resolve("reader")
    return role.kind.bundled or role.window <= SMALL_WINDOW


def reading_context(settings: Settings, gateway: Gateway, parts: ReadingParts,
                    progress: ProgressCallback | None = None) -> ReadingContext:
    """The graph's runtime context from settings and the use case's parts."""
    budget, max_points = reader_window(settings, gateway)
    extractive = extractive_reading(settings, gateway)
    if extractive:
        max_points = min(settings.workflows.reading_max_points, EXTRACTIVE_PASSAGES)
    return ReadingContext(gateway=gateway, grounder=parts.grounder, papers=parts.library,
                          context_budget=budget,
                          max_rewrites=settings.workflows.reading_max_rewrites,
                          reask_explanations=settings.workflows.reading_reask_explanations,
                          max_points=max_points, progress=progress, extractive=extractive,
                          max_questions=4 if extractive else 5,
                          explain=explains_glosses(gateway))


def explains_glosses(gateway: Gateway) -> bool:
    """Whether the reader's glosses are shown: always but for a bundled model measured to
    get them wrong too often (its row in ``llm.local.BUNDLED_MODELS``)."""
    role = gateway.resolve("reader")
    return not role.kind.bundled or explains(role.model)


async def read_paper(parts: ReadingParts, paper: str | Path, *, job_id: str | None = None,
                     out_dir: Path | None = None, progress: ProgressCallback | None = None,
                     gateway: Gateway | None = None, language: str | None = None) -> ReadingRun:
    """The whole use case: resolve, read (or resume job ``job_id``), write
    report.json/.md/.html to ``out_dir`` (default ``<home>/reports/<job id>/``); free text
    in ``language`` (default the 'language' setting)."""
    stored = resolve_paper(parts.library, paper)
    job = job_id or uuid.uuid4().hex
    lang = output_language(language, parts.settings.language)
    bound = (gateway or gateway_for(parts)).bind(job_id=job, language=lang)
    context = reading_context(parts.settings, bound, parts, progress)
    result = await run_workflow(parts, build_graph(), {"paper_id": stored.id}, job_id=job,
                                context=context, progress=progress)
    report = assemble_report(result.state, paper_id=stored.id, job_id=job, gateway=bound)
    report = report.model_copy(update={"language": lang})
    return ReadingRun(report, job, write_reports(report, report_folder(parts, job, out_dir)))


async def run_job(parts: ReadingParts, job: Job, progress: ProgressCallback,
                  gateway: Gateway | None) -> dict[str, Any]:
    """A reading job (the workflow table's use-case contract); its usage."""
    run = await read_paper(parts, job.request.paper_id or "", job_id=job.id, progress=progress,
                           gateway=gateway, language=job.request.language)
    return run.report.usage.model_dump(mode="json")
