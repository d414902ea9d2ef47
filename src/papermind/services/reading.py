"""Deep reading use case: resolve the paper, run the graph under a durable checkpointer,
assemble and write the report. Used by the CLI now and the REST API's jobs later."""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papermind.config import Settings
from papermind.domain import Paper
from papermind.domain.reading import ReadingReport
from papermind.errors import InputError
from papermind.llm import Gateway
from papermind.services.checkpoints import sqlite_checkpointer
from papermind.services.container import Container
from papermind.services.language import output_language
from papermind.services.library import SUPPORTED_SUFFIXES, LibraryService
from papermind.services.report_files import write_report_files
from papermind.services.runner import run_graph
from papermind.workflows.deep_reading import ReadingContext, build_graph
from papermind.workflows.deep_reading.render import to_html, to_json, to_markdown
from papermind.workflows.deep_reading.report import assemble_report
from papermind.workflows.ports import Grounder, ProgressCallback

PROMPT_RESERVE = 1200
"""Tokens kept for instructions, and in a rewrite the previous analysis and the feedback."""
SCHEMA_RESERVE = 600
"""Extra tokens where the JSON schema travels inside the prompt (json_mode, local model)."""
SMALL_WINDOW = 8192


def gateway_for(container: Container) -> Gateway:
    """The gateway a reading runs on (a seam tests replace)."""
    return container.gateway


def resolve_paper(library: LibraryService, paper: str | Path) -> Paper:
    """A stored paper by id (or unique prefix), or a file path added to the library first."""
    path = Path(paper)
    if path.is_file():
        result = library.add_file(path)
        if result.status == "failed" or result.paper_id is None:
            raise InputError(result.reason or f"{path}: could not be added")
        return library.get(result.paper_id)
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give one paper (a file or a library id)")
    if path.suffix.lower() in SUPPORTED_SUFFIXES or "/" in str(paper):
        raise InputError(f"{path}: no such file")
    return library.show(str(paper)).paper


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
    if role.endpoint.provider == "local" or role.endpoint.structured_method == "json_mode":
        reserve += SCHEMA_RESERVE
    return max(256, window - room - reserve), points


@dataclass
class ReadingRun:
    """A finished deep reading: the report and where its files went (if written)."""

    report: ReadingReport
    job_id: str
    files: list[Path] = field(default_factory=list)


async def run_reading(paper: Paper, *, settings: Settings, gateway: Gateway, grounder: Grounder,
                      papers: Any, job_id: str, checkpoint_db: Path,
                      progress: ProgressCallback | None = None,
                      language: str | None = None) -> ReadingReport:
    """Run (or resume) job ``job_id`` on ``paper`` and return its report (free text in
    ``language``, default the setting)."""
    lang = output_language(language, settings.language)
    bound = gateway.bind(job_id=job_id, language=lang)
    budget, max_points = reader_window(settings, bound)
    context = ReadingContext(gateway=bound, grounder=grounder, papers=papers,
                             context_budget=budget,
                             max_rewrites=settings.workflows.reading_max_rewrites,
                             max_points=max_points, progress=progress)
    started = {"at": time.perf_counter()}

    def on_node(node: str, delta: Mapping[str, Any]) -> None:
        if progress is None:
            return
        history = delta.get("history") or []
        summary = history[-1].summary if history else ""
        progress(node, {"event": "finished", "summary": summary,
                        "seconds": round(time.perf_counter() - started["at"], 1)})
        started["at"] = time.perf_counter()

    async with sqlite_checkpointer(checkpoint_db) as saver:
        result = await run_graph(build_graph(), {"paper_id": paper.id}, thread_id=job_id,
                                 checkpointer=saver, context=context, on_node=on_node)
    report = assemble_report(result.state, paper_id=paper.id, job_id=job_id, gateway=bound)
    return report.model_copy(update={"language": lang})


async def read_paper(container: Container, paper: str | Path, *, job_id: str | None = None,
                     out_dir: Path | None = None, progress: ProgressCallback | None = None,
                     gateway: Gateway | None = None, language: str | None = None) -> ReadingRun:
    """The whole use case: resolve, read, write report.json/.md/.html to ``out_dir``.

    ``out_dir`` None writes to ``<home>/reports/<job id>/``.
    """
    stored = resolve_paper(container.library, paper)
    job = job_id or uuid.uuid4().hex
    report = await run_reading(stored, settings=container.settings,
                               gateway=gateway or gateway_for(container),
                               grounder=container.grounder, papers=container.library,
                               job_id=job, checkpoint_db=container.settings.checkpoint_path,
                               progress=progress, language=language)
    folder = out_dir if out_dir is not None else container.settings.home_dir / "reports" / job
    return ReadingRun(report, job, write_reports(report, folder))


def write_reports(report: ReadingReport, folder: Path) -> list[Path]:
    """report.json, report.md and report.html in ``folder`` (created if needed)."""
    return write_report_files(folder, json_text=to_json(report), markdown=to_markdown(report),
                              html=to_html(report))
