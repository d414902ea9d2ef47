"""Response models of the REST API: each endpoint names its answer in the OpenAPI schema.

Domain models (Paper, SearchHit, Job, JobEvent) are returned as they are; the models here
add what the API shows around them (links, the record without its server-side file path).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from papermind.domain import Paper
from papermind.domain.job import Job


class Health(BaseModel):
    status: str = Field(description="'ok' when the server answers")
    version: str


class PaperRecordOut(BaseModel):
    """What the library knows about a stored paper (its server-side file path is not shown)."""

    id: str = Field(description="sha256 of the original file (hex)")
    title: str = ""
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    source_name: str = Field(default="", description="original file name")
    source_type: str = Field(description="'pdf', 'txt' or 'md'")
    pages: int = 0
    size_bytes: int = 0
    added_at: str = Field(description="when it was added (ISO-8601 UTC)")
    title_guessed: bool = Field(default=False, description="the title is a guess (the first "
                                "line of text or the file name): say so where it is shown")


class Uploaded(BaseModel):
    id: str | None = Field(description="the paper's id (None when it could not be stored)")
    title: str = ""
    status: str = Field(description="'added', 'duplicate', ...")


class PaperDetail(BaseModel):
    record: PaperRecordOut
    paper: Paper


class Removed(BaseModel):
    removed: PaperRecordOut


class PaperRef(BaseModel):
    id: str
    title: str


class LineOut(BaseModel):
    page: int
    n: int
    text: str


class Verification(BaseModel):
    """A claim checked against the lines it cites (see ``papermind verify``)."""

    paper: PaperRef
    evidence: dict[str, Any] = Field(description="the evidence item in its one JSON shape")
    found: bool
    support: dict[str, Any]
    verified: bool
    code: dict[str, Any] = Field(description="the code checks' verdict on its own")
    judged: bool = Field(description="whether the checker model ran")
    notes: list[str]
    lines: list[LineOut]


class JobLinks(BaseModel):
    self: str
    events: str
    stream: str
    result: str


class JobOut(Job):
    """A job's record and the links to follow it."""

    links: JobLinks

    @classmethod
    def of(cls, job: Job) -> JobOut:
        base = f"/api/jobs/{job.id}"
        links = JobLinks(self=base, events=f"{base}/events", stream=f"{base}/stream",
                         result=f"{base}/result")
        return cls.model_validate({**job.model_dump(), "links": links})


class Submitted(JobOut):
    created: bool = Field(description="False when an equal unfinished job was returned")


class CheckFindingOut(BaseModel):
    """One finding of the model-free check (the one JSON shape of reports/check.py)."""

    kind: str
    severity: Literal["high", "medium", "low"]
    aspect: str
    message: str
    where: str = Field(description="'p. 3, l. 12' or 'file.tex:14'; '' for the whole paper")
    text: str = Field(description="the paper's text at the anchor")
    fix: str
    anchor: dict[str, Any] | None = Field(description="page and lines in the paper")
    source: dict[str, Any] | None = Field(description="file and line of a LaTeX source")
    comment: str | None = None


class CheckResult(BaseModel):
    """Every finding of `papermind check` on one stored paper, most severe first."""

    paper_id: str
    title: str
    source_name: str
    venue: str | None
    anonymous: bool
    counts: dict[str, int] = Field(description="severity -> number of findings")
    findings: list[CheckFindingOut]
    notes: list[str] = Field(description="what was not checked and why")
