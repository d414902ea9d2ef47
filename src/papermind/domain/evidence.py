"""Evidence: what a model cited, what code found there, and whether it supports the claim.

Two verdicts, never merged (issue 12):

- ``found`` (code): the cited lines exist and, when a quote was given, the quote lies in or
  next to them (or was located elsewhere and the anchor moved there, with a note). ``anchor``
  is set exactly when found.
- ``support``: does the text at the anchor support the claim? ``supported`` |
  ``contradicted`` | ``not_enough`` | ``unchecked``, with who decided (``code`` or
  ``checker:<model>``) and why. Code checks run first and can only lower a verdict.

``verified`` is found AND supported; every surface uses that word for nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen

MatchMethod = Literal["lines", "exact", "normalized", "fuzzy", "none"]
SupportVerdict = Literal["supported", "contradicted", "not_enough", "unchecked"]

# how much each verdict lowers a claim: higher is worse; code may only move a verdict upwards
VERDICT_SEVERITY: dict[SupportVerdict, int] = {
    "supported": 0, "unchecked": 1, "not_enough": 2, "contradicted": 3}


class Support(Frozen):
    """Whether the text at the anchor supports the claim, who decided, and why."""

    verdict: SupportVerdict = "unchecked"
    by: str = Field(default="", description="'code', or 'checker:<model name>'; '' if unchecked")
    reason: str = Field(default="", description="why, in code's or the checker's words")


class Evidence(Frozen):
    """A citation of the paper and its two verdicts. ``anchor`` is None unless found."""

    quote: str = Field(default="", description="the short quote the model (or user) gave, if any")
    cited: str = Field(default="", description="the line ids the model cited, e.g. '3:12-14'")
    claim: str = Field(default="", description="the claim this evidence is meant to support")
    anchor: Anchor | None = Field(default=None, description="where code found it; None if not")
    matched_text: str = Field(default="", description="the paper's exact text at the anchor")
    score: float = Field(default=0.0, description="quote match score in [0, 1] (1 for lines)")
    method: MatchMethod = "none"
    support: Support = Field(default_factory=Support)
    reasons: list[str] = Field(default_factory=list, description="why not found, or not supported")
    notes: list[str] = Field(default_factory=list,
                             description="what code changed, e.g. 'quote found at p. 4; anchor moved'")
    related: float | None = Field(
        default=None, description="share of the claim's content words and numbers that code "
        "found at or around the anchor (None: not measured); a judge's 'supported' counts "
        "only above the floor")

    @property
    def found(self) -> bool:
        """Code found the cited text in the paper (the anchor is set)."""
        return self.anchor is not None

    @property
    def verified(self) -> bool:
        """Found AND supported: the only thing any surface may call 'verified'."""
        return self.found and self.support.verdict == "supported"

    def with_support(self, support: Support) -> Evidence:
        """This evidence with ``support``, never better than a code verdict already set."""
        current = self.support
        if current.by == "code" and VERDICT_SEVERITY[current.verdict] > VERDICT_SEVERITY[
                support.verdict]:
            return self
        return self.model_copy(update={"support": support})


class VerdictCounts(Frozen):
    """How many cited items there are, how many were found, and the support verdicts of
    those found (every report counts the same way)."""

    total: int = 0
    found: int = 0
    supported: int = Field(default=0, description="found AND supported (= verified)")
    contradicted: int = 0
    not_enough: int = 0
    unchecked: int = 0


class VerificationSummary(VerdictCounts):
    """Per-report counts of both verdicts."""

    unfound: list[str] = Field(default_factory=list, description="quotes or ids not found")

    @property
    def verified(self) -> int:
        return self.supported

    @property
    def share_found(self) -> float:
        return self.found / self.total if self.total else 0.0

    @property
    def share_supported(self) -> float:
        return self.supported / self.total if self.total else 0.0

    @classmethod
    def of(cls, items: list[Evidence]) -> VerificationSummary:
        found = [e for e in items if e.found]
        return cls(
            total=len(items), found=len(found),
            supported=sum(e.support.verdict == "supported" for e in found),
            contradicted=sum(e.support.verdict == "contradicted" for e in found),
            not_enough=sum(e.support.verdict == "not_enough" for e in found),
            unchecked=sum(e.support.verdict == "unchecked" for e in found),
            unfound=[e.quote or e.cited for e in items if not e.found])
