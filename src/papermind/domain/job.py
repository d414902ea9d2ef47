"""Background jobs: a deep reading, a review or a question, run by the job service."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from papermind.domain.base import Frozen

JobKind = Literal["reading", "review", "question"]
JobStatus = Literal["queued", "running", "completed", "failed", "cancelled"]
FINISHED: frozenset[str] = frozenset({"completed", "failed", "cancelled"})


class JobRequest(Frozen):
    """What a client asked for. Two equal requests share one running job."""

    kind: JobKind
    paper_id: str | None = Field(default=None, description="the paper (reading, review)")
    question: str | None = Field(default=None, description="the question (question jobs)")
    deep: bool = Field(default=False, description="question: run the deep-thinking workflow")
    paper_ids: list[str] = Field(default_factory=list, description="question: limit to papers")
    reviewers: Literal["minimal", "full"] = Field(default="full", description="review panel size")

    @model_validator(mode="after")
    def _needs(self) -> JobRequest:
        if self.kind in ("reading", "review") and not self.paper_id:
            raise ValueError(f"a {self.kind} job needs paper_id")
        if self.kind == "question" and not (self.question and self.question.strip()):
            raise ValueError("a question job needs a non-empty question")
        return self


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
