"""Background jobs, one kind per row of the workflow table, run by the job service."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from papermind.domain.base import Frozen
from papermind.domain.workflows import WORKFLOWS

JobKind = str
"""A key of the workflow table (``domain.workflows.WORKFLOWS``): 'reading', 'review',
'question'."""
JobStatus = Literal["queued", "running", "completed", "failed", "cancelled"]
FINISHED: frozenset[str] = frozenset({"completed", "failed", "cancelled"})
MAX_QUESTION_CHARS = 2000
"""The longest question, in characters (a job is refused at once, not failed later)."""


def _check_encodable(text: str) -> None:
    """Refuse text that cannot be stored or sent as UTF-8 (lone surrogates, e.g. "\\ud800")."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text contains an unpaired surrogate (not valid Unicode)") from None


class JobRequest(Frozen):
    """What a client asked for. Two equal requests share one running job."""

    kind: JobKind = Field(json_schema_extra={"enum": list(WORKFLOWS)},
                          description="the workflow: " + ", ".join(WORKFLOWS))
    paper_id: str | None = Field(default=None, max_length=200,
                                 description="the paper (reading, review)")
    question: str | None = Field(default=None, max_length=MAX_QUESTION_CHARS,
                                 description="the question (question jobs)")
    deep: bool = Field(default=False, description="question: run the deep-thinking workflow")
    paper_ids: list[str] = Field(default_factory=list, max_length=1000,
                                 description="question: limit to papers")
    reviewers: Literal["minimal", "full"] = Field(default="full", description="review panel size")
    language: str | None = Field(
        default=None, max_length=16, pattern=r"^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$",
        description="language of the report's free text, e.g. 'zh' (null: the setting)")
    follows: str | None = Field(default=None, max_length=200,
                                description="question: the job id of the turn this question "
                                            "follows up (its conversation is the context)")

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        if value not in WORKFLOWS:
            raise ValueError(f"unknown job kind {value!r}; use {', '.join(map(repr, WORKFLOWS))}")
        return value

    @field_validator("paper_id", "question", "follows")
    @classmethod
    def _encodable(cls, value: str | None) -> str | None:
        if value is not None:
            _check_encodable(value)
        return value

    @field_validator("paper_ids")
    @classmethod
    def _ids_encodable(cls, value: list[str]) -> list[str]:
        for item in value:
            if len(item) > 200:
                raise ValueError("a paper id is at most 200 characters")
            _check_encodable(item)
        return value

    @model_validator(mode="after")
    def _needs(self) -> JobRequest:
        needs = WORKFLOWS[self.kind].needs
        if needs == "paper_id" and not self.paper_id:
            raise ValueError(f"a {self.kind} job needs paper_id")
        if needs == "question" and not (self.question and self.question.strip()):
            raise ValueError(f"a {self.kind} job needs a non-empty question")
        return self


class JobOwner(Frozen):
    """The process that runs (or holds) a job: a server, a worker or a CLI command."""

    host: str = Field(description="host name of the owning process")
    pid: int = Field(description="process id on that host")
    started_at: float = Field(description="when the owning process started (Unix time)")

    @property
    def label(self) -> str:
        return f"{self.host} pid {self.pid}"


class Job(Frozen):
    """A job's record: request, status, timings, error and usage."""

    id: str
    request: JobRequest
    status: JobStatus = "queued"
    error: str | None = Field(default=None, description="user-safe message when failed")
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    attempts: int = Field(default=0, description="times a worker started (or resumed) it")
    usage: dict[str, object] = Field(default_factory=dict, description="tokens and cost")
    owner: JobOwner | None = Field(default=None, description="the process that holds (or last "
                                   "held) the job; null: never taken")
    heartbeat_at: float | None = Field(default=None, description="the owner's last heartbeat")
    lease_until: float | None = Field(
        default=None, description="the owner's lease ends then unless renewed; past it (or "
        "null) another process may resume the job")

    @property
    def finished(self) -> bool:
        return self.status in FINISHED


class JobEvent(Frozen):
    """One progress event of a job (node started / finished, status change)."""

    job_id: str
    seq: int
    at: float
    kind: str = Field(description="'node', 'status'")
    node: str | None = None
    data: dict[str, object] = Field(default_factory=dict)
