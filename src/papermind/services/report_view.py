"""A finished job's report read back from its JSON and rendered with today's renderer.

Pages show reports from report.json, not the HTML written at the time, so an old report
picks up every fix to the renderer. A report that no longer reads as its model (written by
an older, incompatible version) falls back to the HTML stored with it.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup
from pydantic import ValidationError

from papermind.domain.job import Job
from papermind.errors import NotFoundError
from papermind.services.workflow_table import renderer_for
from papermind.workflows.review.consistency import verdict_line

if TYPE_CHECKING:
    from papermind.services.container import Container

log = logging.getLogger(__name__)
_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class ReportView:
    """What a page needs to show a job's report."""

    job_id: str
    kind: str
    title: str
    body: Markup
    data: dict[str, Any]
    """The stored JSON (the answer text, the status, the evidence)."""
    fresh: bool = True
    """False when the stored HTML was shown because the JSON no longer reads."""


def load_report(container: Container, job: Job) -> ReportView:
    """The report of ``job``; NotFoundError while it has none."""
    path = container.report_file(job.id, "report.json")
    if job.status != "completed" or not path.is_file():
        raise NotFoundError(f"this job has no report yet ({job.status})")
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        title, body = _render(data)
        return ReportView(job.id, job.request.kind, title, body, data)
    except (ValidationError, KeyError, TypeError, ValueError):
        log.warning("report %s no longer reads as its model; showing its stored HTML", job.id,
                    exc_info=True)
    html = container.report_file(job.id, "report.html")
    stored = html.read_text(encoding="utf-8") if html.is_file() else ""
    match = _BODY.search(stored)
    return ReportView(job.id, job.request.kind, str(data.get("title", "")),
                      Markup(match.group(1) if match else ""), data, fresh=False)


def _render(data: dict[str, Any]) -> tuple[str, Markup]:
    """(title, content HTML) of a stored report, through its kind's render module."""
    render = renderer_for(str(data["kind"]))
    report = render.from_json(data)
    title = getattr(report, "question", None) or getattr(report, "title", "")
    return str(title), render.to_html_body(report)


def recommendation(container: Container, job: Job) -> str | None:
    """A finished review's recommendation as every interface shows it (the job's page, MCP):
    'major revision (confidence 0.60)' with its contradicts-the-scores flag, or why there is
    none; None for other jobs or while there is no report."""
    if job.request.kind != "review" or job.status != "completed":
        return None
    path = container.report_file(job.id, "report.json")
    try:
        report = renderer_for("review").from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return verdict_line(report)
