"""The scholarly record outside the library: works found in a source, and reference checks.

A ``FoundWork`` is what OpenAlex, Crossref, arXiv or Semantic Scholar said about a work: it is
external evidence, never verified against a stored paper. A ``ReferenceVerdict`` is the
deterministic comparison of one bibliography entry with what the sources hold.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from papermind.domain.base import Frozen

RefStatus = Literal["verified", "mismatch", "not_found", "ambiguous", "skipped"]
RefField = Literal["title", "authors", "year", "venue"]


class FoundWork(Frozen):
    """One work as a scholarly source describes it."""

    source: str = Field(description="'openalex', 'crossref', 'arxiv' or 'semantic_scholar'")
    id: str = Field(description="the source's own id (OpenAlex W..., a DOI, an arXiv id...)")
    doi: str | None = Field(default=None, description="normalised: lower case, no resolver")
    arxiv: str | None = Field(default=None, description="arXiv id without version")
    title: str = ""
    authors: list[str] = Field(default_factory=list, description="display names, in order")
    year: int | None = None
    venue: str | None = None
    kind: str | None = Field(default=None, description="the source's work type, e.g. 'article'")
    retracted: bool = Field(default=False, description="the source marks the work retracted")
    retracts: list[str] = Field(
        default_factory=list, description="DOIs this record retracts (a retraction notice)")
    abstract: str | None = None
    url: str | None = Field(default=None, description="landing page")
    pdf_url: str | None = Field(default=None, description="an open-access PDF, if known")

    @property
    def is_preprint(self) -> bool:
        """Posted on a preprint server rather than published (by venue, type or id)."""
        venue = (self.venue or "").lower()
        return (self.kind or "").lower() in {"preprint", "posted-content"} or \
            "arxiv" in venue or (self.doi or "").startswith("10.48550/")

    def match_json(self) -> dict[str, object]:
        """The ``match`` object of a reference check."""
        return WorkMatch.model_validate(
            {name: getattr(self, name) for name in WorkMatch.model_fields}).model_dump()


class WorkMatch(Frozen):
    """The work an entry was matched to, as the source describes it (a reference check's
    ``match``: the fields of ``FoundWork`` a person compares with the entry)."""

    source: str
    id: str
    doi: str | None = None
    title: str = ""
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    venue: str | None = None


class FieldMismatch(Frozen):
    """A field the entry gives differently from the matched work."""

    field: RefField
    cited: str
    found: str


class ReferenceCheck(Frozen):
    """What a reference check says of one bibliography entry (its matched work aside)."""

    index: int = Field(description="1-based position in the reference list")
    text: str = Field(description="the entry as printed")
    status: RefStatus
    mismatches: list[FieldMismatch] = Field(default_factory=list)
    retracted: bool = False
    message: str = Field(default="", description="what a person should do, in words")
    notes: list[str] = Field(default_factory=list, description="e.g. a published version")


class ReferenceVerdict(ReferenceCheck):
    """One bibliography entry checked against the scholarly sources."""

    match: FoundWork | None = None
    requests: int = Field(default=0, description="lookups sent (cached answers not counted)")

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "text": self.text, "status": self.status,
                "mismatches": [m.model_dump() for m in self.mismatches],
                "match": self.match.match_json() if self.match else None,
                "retracted": self.retracted, "message": self.message, "notes": list(self.notes)}


class SourceState(Frozen):
    """How a source fared during a run: 'ok', 'down' (with why) or 'off' (not configured)."""

    name: str
    label: str
    status: Literal["ok", "down", "off"] = "ok"
    message: str = ""
    sent: int = Field(default=0, description="requests sent over the network")
    cached: int = Field(default=0, description="lookups answered from the library's cache")


class ReferencesReport(Frozen):
    """Every bibliography entry of one paper, checked."""

    paper_id: str | None = None
    title: str = ""
    references: list[ReferenceVerdict] = Field(default_factory=list)
    sources: list[SourceState] = Field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for ref in self.references:
            out[ref.status] = out.get(ref.status, 0) + 1
        out["retracted"] = sum(r.retracted for r in self.references)
        return out

    def to_json(self) -> dict[str, object]:
        return {"paper_id": self.paper_id, "title": self.title,
                "references": [r.to_json() for r in self.references],
                "sources": [s.model_dump() for s in self.sources], "counts": self.counts()}
