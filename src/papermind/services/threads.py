"""Conversations: a follow-up question is a job whose request names the turn it follows.

A thread is the chain of question jobs linked by ``JobRequest.follows``; the earlier turns
(question and answer text, from each turn's report) are the context of the next question.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol

from papermind.domain.answer import Turn
from papermind.domain.job import Job
from papermind.errors import InputError, NotFoundError
from papermind.services.job_store import JobRecords


class ReportFiles(Protocol):
    """Where a finished job's report files are (the container provides it)."""

    def report_file(self, job_id: str, name: str) -> Path: ...


MAX_TURNS = 20
"""Turns followed back from the newest (older ones drop out of the context)."""
CONTEXT_TURNS = 4
"""Earlier turns given to the model with a follow-up."""


def thread_of(store: JobRecords, job_id: str) -> list[Job]:
    """The question jobs of ``job_id``'s conversation, oldest first, ending with it."""
    chain: list[Job] = []
    seen: set[str] = set()
    current: str | None = job_id
    while current and current not in seen and len(chain) < MAX_TURNS:
        seen.add(current)
        try:
            job = store.get(current)
        except NotFoundError:
            if not chain:
                raise
            break  # an earlier turn was deleted: the thread starts after it
        chain.append(job)
        current = job.request.follows
    return list(reversed(chain))


def answer_text(files: ReportFiles, job: Job) -> str:
    """The answer a finished question job gave ('' while it has none)."""
    path = files.report_file(job.id, "report.json")
    if job.status != "completed" or not path.is_file():
        return ""
    data = json.loads(path.read_text(encoding="utf-8"))
    return str(data.get("answer", ""))


def earlier_turns(files: ReportFiles, store: JobRecords, job: Job) -> list[Turn]:
    """The turns ``job`` follows up, oldest first, at most CONTEXT_TURNS."""
    if not job.request.follows:
        return []
    chain = thread_of(store, job.request.follows)
    return [Turn(question=t.request.question or "", answer=answer_text(files, t),
                 job_id=t.id) for t in chain[-CONTEXT_TURNS:]]


def check_follow_up(store: JobRecords, follows: str) -> Job:
    """The question job a follow-up names; InputError when it is not one."""
    job = store.get(follows)
    if job.request.kind != "question":
        raise InputError("a follow-up must follow a question")
    return job
