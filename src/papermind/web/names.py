"""Human names for what pages show: job kinds, statuses, workflow steps, and short ids.

Ids stay available on hover and copy (``title`` attributes, ``<code>``), never as the name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from jinja2 import Environment

from papermind.domain.workflows import WORKFLOWS
from papermind.web.steps import job_steps

KINDS = {kind: spec.title for kind, spec in WORKFLOWS.items()}
STATUSES = {"queued": "waiting", "running": "running", "completed": "completed",
            "failed": "failed", "cancelled": "cancelled"}
UPLOAD_STATES = {"waiting": "waiting", "parse": "reading the file", "ocr": "reading scanned pages (OCR)",
                 "index": "indexing for search", "embed": "embedding passages",
                 "added": "added", "exists": "already in the library", "failed": "failed"}
SHORT_ID = 10


def status_labels(gettext: Callable[[str], str]) -> str:
    """JSON of every status's name in the page's language (the live script shows them)."""
    return json.dumps({k: gettext(v) for k, v in STATUSES.items()}, ensure_ascii=False)


def kind_name(kind: str) -> str:
    return KINDS.get(kind, kind.replace("_", " ").capitalize())


def status_name(status: str) -> str:
    return STATUSES.get(status, status)


def upload_state(state: str) -> str:
    return UPLOAD_STATES.get(state, state)


def step_name(node: str) -> str:
    """'verify_citations' -> 'Verify citations'."""
    return node.replace("_", " ").strip().capitalize() or "Step"


def short_id(value: str) -> str:
    return value[:SHORT_ID]


def _english(message: str, **values: object) -> str:
    return message.format(**values) if values else message


def job_title(job: Any, titles: Mapping[str, str] | None = None,
              gettext: Callable[..., str] = _english) -> str:
    """What a job is about, in words: 'Deep reading: <paper title>', or the question."""
    request = job.request
    spec = WORKFLOWS.get(request.kind)
    if spec is not None and spec.needs == "question":
        question = " ".join((request.question or "").split())
        return question if len(question) <= 120 else question[:117] + "..."
    paper = request.paper_id or ""
    title = (titles or {}).get(paper) or gettext("paper {id}", id=short_id(paper))
    return gettext(f"{kind_name(request.kind)}: {{title}}", title=title)


def install_names(env: Environment) -> Environment:
    """Add the filters ``kind_name``, ``status_name``, ``step_name``, ``short_id``,
    ``job_title`` and ``upload_state`` (and the globals ``upload_states`` and ``job_steps``)
    to ``env``."""
    env.filters.update({"kind_name": kind_name, "status_name": status_name,
                        "step_name": step_name, "short_id": short_id, "job_title": job_title,
                        "upload_state": upload_state})
    env.globals["upload_states"] = UPLOAD_STATES
    env.globals["job_steps"] = job_steps
    env.globals["status_labels"] = status_labels
    return env
