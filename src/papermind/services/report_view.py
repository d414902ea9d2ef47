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
    folder = container.report_dir(job.id)
    path = folder / "report.json"
    if job.status != "completed" or not path.is_file():
        raise NotFoundError(f"this job has no report yet ({job.status})")
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        title, body = _render(job.request.kind, data)
        return ReportView(job.id, job.request.kind, title, body, data)
    except (ValidationError, KeyError, TypeError, ValueError):
        log.warning("report %s no longer reads as its model; showing its stored HTML", job.id,
                    exc_info=True)
    stored = (folder / "report.html").read_text(encoding="utf-8") \
        if (folder / "report.html").is_file() else ""
    match = _BODY.search(stored)
    return ReportView(job.id, job.request.kind, str(data.get("title", "")),
                      Markup(match.group(1) if match else ""), data, fresh=False)


def _render(kind: str, data: dict[str, Any]) -> tuple[str, Markup]:
    if kind == "reading":
        from papermind.workflows.deep_reading import render as reading

        report = reading.from_dict(data)
        return report.title, reading.to_html_body(report)
    if kind == "review":
        from papermind.domain.review import ReviewReport
        from papermind.workflows.review import render as review

        reviewed = ReviewReport.model_validate(data)
        return reviewed.title, review.to_html_body(reviewed)
    from papermind.workflows.deep_qa.render import to_html_body
    from papermind.workflows.deep_qa.report import report_from_json

    answer = report_from_json(data)
    return answer.question, to_html_body(answer)
