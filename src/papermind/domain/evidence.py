"""Evidence: a model-proposed quote together with what grounding code found."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen

MatchMethod = Literal["exact", "normalized", "fuzzy", "none"]


class Evidence(Frozen):
    """A quote and its verdict. ``anchor`` is None unless code located the quote."""

    quote: str = Field(description="the text the model (or user) proposed")
    anchor: Anchor | None = Field(default=None, description="where code found it; None if not")
    matched_text: str = Field(default="", description="the paper's text at the anchor")
    score: float = Field(default=0.0, description="match score in [0, 1]")
    method: MatchMethod = "none"
    verified: bool = Field(default=False, description="located and no claim check failed")
    reasons: list[str] = Field(default_factory=list, description="why not verified, or notes")


class VerificationSummary(Frozen):
    """Per-report summary of how much of what it says was verified."""

    total: int = 0
    verified: int = 0
    unverified: list[str] = Field(default_factory=list, description="quotes that were not verified")

    @property
    def share_verified(self) -> float:
        return self.verified / self.total if self.total else 1.0

    @classmethod
    def of(cls, items: list[Evidence]) -> VerificationSummary:
        return cls(total=len(items), verified=sum(e.verified for e in items),
                   unverified=[e.quote for e in items if not e.verified])
