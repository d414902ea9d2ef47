"""Response model of ``GET /api/papers/{id}/references`` (the `papermind refs --json` shape)."""

from __future__ import annotations

from pydantic import BaseModel

from papermind.domain.scholar import ReferenceCheck, SourceState, WorkMatch


class ReferenceOut(ReferenceCheck):
    """One entry checked, with the work it was matched to (as the source describes it)."""

    match: WorkMatch | None = None


class ReferencesOut(BaseModel):
    """Every bibliography entry checked, and how each source fared (one may be down)."""

    paper_id: str | None = None
    title: str = ""
    references: list[ReferenceOut]
    sources: list[SourceState]
    counts: dict[str, int]
