"""Human names for what pages show: job kinds, statuses, workflow steps, and short ids.

Ids stay available on hover and copy (``title`` attributes, ``<code>``), never as the name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jinja2 import Environment

KINDS = {"reading": "Deep reading", "review": "Pre-review", "question": "Question"}
STATUSES = {"queued": "waiting", "running": "running", "completed": "finished",
            "failed": "failed", "cancelled": "cancelled"}
UPLOAD_STATES = {"waiting": "waiting", "parse": "reading the file",
                 "index": "indexing for search", "embed": "embedding passages",
                 "added": "added", "exists": "already in the library", "failed": "failed"}
SHORT_ID = 10


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


def job_title(job: Any, titles: Mapping[str, str] | None = None) -> str:
    """What a job is about, in words: 'Deep reading: <paper title>', or the question."""
    request = job.request
    titles = titles or {}
    if request.kind == "question":
        question = " ".join((request.question or "").split())
        return question if len(question) <= 120 else question[:117] + "..."
    paper = request.paper_id or ""
    return f"{kind_name(request.kind)}: {titles.get(paper) or 'paper ' + short_id(paper)}"


def install_names(env: Environment) -> Environment:
    """Add the filters ``kind_name``, ``status_name``, ``step_name``, ``short_id``,
    ``job_title`` and ``upload_state`` (and the global ``upload_states``) to ``env``."""
    env.filters.update({"kind_name": kind_name, "status_name": status_name,
                        "step_name": step_name, "short_id": short_id, "job_title": job_title,
                        "upload_state": upload_state})
    env.globals["upload_states"] = UPLOAD_STATES
    return env
