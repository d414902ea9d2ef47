"""Response model of ``GET /api/papers/{id}/references`` (the `papermind refs --json` shape)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from papermind.domain.scholar import FieldMismatch, RefStatus, SourceState


class ReferenceMatchOut(BaseModel):
    """The work an entry was matched to, as the source describes it."""

    source: str
    id: str
    doi: str | None = None
    title: str = ""
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    venue: str | None = None


class ReferenceOut(BaseModel):
    index: int = Field(description="1-based position in the reference list")
    text: str = Field(description="the entry as printed")
    status: RefStatus
    mismatches: list[FieldMismatch] = Field(default_factory=list)
    match: ReferenceMatchOut | None = None
    retracted: bool = False
    message: str = Field(default="", description="what to do, e.g. 'not found in ...: check it'")
    notes: list[str] = Field(default_factory=list)


class ReferencesOut(BaseModel):
    """Every bibliography entry checked, and how each source fared (one may be down)."""

    paper_id: str | None = None
    title: str = ""
    references: list[ReferenceOut]
    sources: list[SourceState]
    counts: dict[str, int]
