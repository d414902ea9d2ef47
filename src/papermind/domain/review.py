"""Review panel data: the message protocol's messages, grounding verdicts and the report."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.evidence import Evidence
from papermind.domain.paper import Finding

ReviewerRole = Literal["contribution_reviewer", "methodology_reviewer", "experiment_reviewer"]
Sender = Literal["editor", "contribution_reviewer", "methodology_reviewer",
                 "experiment_reviewer", "devil", "meta", "human"]
MessageKind = Literal["task", "summary", "strength", "issue", "attack", "arbitration",
                      "score_change", "plan_item", "signoff"]
TargetKind = Literal["paper", "section", "table", "figure", "equation", "page_line"]
Verdict = Literal["claim_stands", "attack_stands", "unresolved"]
Recommendation = Literal["accept", "minor_revision", "major_revision", "reject"]

DISCLAIMER = ("This is a pre-review aid produced by language models and checked by code. "
              "It is not a decision about the paper.")


class Target(Frozen):
    """What a message is about: a section, table, figure, equation or page-line span."""

    kind: TargetKind = Field(default="paper", description="kind of element targeted")
    label: str = Field(default="", description="as written, e.g. 'Table 2', 'Section 3.1'")
    anchor: Anchor | None = Field(
        default=None, description="where code found the element (None when not found)")


class ReviewMessage(Frozen):
    """One message of the panel's protocol; ids are unique, so re-delivery is idempotent."""

    id: str = Field(description="unique id, e.g. 'r1-methodology_reviewer-3'")
    sender: Sender
    receiver: str = Field(description="role the message is for, or 'all'")
    round: int = Field(default=1, description="adversarial round, 1-based")
    kind: MessageKind
    target: Target = Field(default_factory=Target)
    content: str = Field(min_length=1, description="what the sender says")
    confidence: float = Field(ge=0.0, le=1.0, description="sender's own confidence")
    references: list[str] = Field(default_factory=list, description="cited works as written")
    quote: str = Field(default="", description="verbatim excerpt of the paper proposed by the model")
    score: float | None = Field(default=None, description="reviewer score (summary messages)")
    reply_to: str | None = Field(default=None, description="message or disagreement answered")
    from_score: float | None = Field(default=None, description="score_change: the frozen score")
    to_score: float | None = Field(default=None, description="score_change: the new score")


class ReferenceCheck(Frozen):
    """A cited work and the bibliography entry it resolved to (or not)."""

    cited: str
    resolved: bool
    entry_key: str | None = None
    entry: str | None = Field(default=None, description="the bibliography entry as printed")


class MessageCheck(Frozen):
    """What the grounding checker found for one message."""

    message_id: str
    evidence: list[Evidence] = Field(default_factory=list)
    references: list[ReferenceCheck] = Field(default_factory=list)
    verified: bool = Field(description="every quote located and every reference resolved")
    weight: float = Field(description="confidence after down-weighting unverified items")
    notes: list[str] = Field(default_factory=list)


class Disagreement(Frozen):
    """Something the meta-reviewer must settle."""

    id: str = Field(description="'D1', 'D2'... stable within a run")
    kind: Literal["claim_vs_attack", "reviewer_conflict", "score_spread"]
    message_ids: list[str] = Field(default_factory=list)
    summary: str
    round: int = 1


class Arbitration(Frozen):
    """How one disagreement was settled."""

    disagreement_id: str
    verdict: Verdict
    reason: str
    round: int = 1


class ScoreChange(Frozen):
    """An explicit change of a reviewer's score: from X to Y because ..."""

    reviewer: str
    from_score: float
    to_score: float
    reason: str = Field(min_length=1)
    round: int = 1
    accepted: bool = True
    rejection: str | None = Field(default=None, description="why the change was rejected")

    def label(self) -> str:
        return f"from {self.from_score:g} to {self.to_score:g} because {self.reason}"


class FinalScore(Frozen):
    """A reviewer's frozen original score and the score after arbitration."""

    reviewer: str
    aspect: str = Field(description="novelty, method or experiments")
    original: float
    final: float
    change: str | None = Field(default=None, description="'from X to Y because ...' or None")


class RevisionItem(Frozen):
    """One step of the prioritised revision plan."""

    priority: int = Field(description="1 = most important")
    action: str
    addresses: list[str] = Field(default_factory=list, description="message ids it answers")
    locations: list[str] = Field(default_factory=list, description="'p. X, l. Y-Z' of those")


class ReportComment(Frozen):
    """A message as shown in the report, with its grounding verdict."""

    message_id: str
    sender: str
    kind: str
    round: int
    target: str
    content: str
    confidence: float
    weight: float
    verified: bool
    location: str = Field(description="'p. X, l. Y-Z' of the verified quote, else 'UNVERIFIED'")
    quote: str = ""
    reply_to: str | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    references: list[ReferenceCheck] = Field(default_factory=list)


class ReviewMetrics(Frozen):
    """Process metrics measured on every run."""

    issue_overlap: float = Field(description="mean pairwise Jaccard of reviewers' issue terms")
    independence: float = Field(description="1 - issue_overlap")
    pair_overlap: dict[str, float] = Field(default_factory=dict)
    positive_claims: int = 0
    claims_attacked: int = 0
    attack_coverage: float = Field(default=0.0, description="share of positive claims attacked")
    attacks: int = 0
    attacks_tied: int = 0
    attacks_tied_share: float = Field(default=0.0, description="share of attacks tied to an excerpt")
    comments: int = 0
    comments_traceable: int = 0
    traceability: float = Field(
        default=0.0, description="share of final comments mapping to a message and a verified anchor")


class UnverifiedItem(Frozen):
    """A quote or reference the grounding checker could not verify."""

    kind: Literal["quote", "reference"]
    text: str
    message_id: str
    sender: str
    reason: str = ""


class ReviewReport(Frozen):
    """The panel's report (JSON form; Markdown and HTML are rendered from it)."""

    kind: Literal["review"] = "review"
    paper_id: str
    title: str
    disclaimer: str = DISCLAIMER
    demo_quality: bool = False
    panel: list[str] = Field(default_factory=list)
    models: dict[str, str] = Field(default_factory=dict)
    findings: list[Finding] = Field(default_factory=list, description="hidden text etc.")
    editor_summary: str = ""
    scores: list[FinalScore] = Field(default_factory=list)
    recommendation: Recommendation | None = None
    recommendation_confidence: float = 0.0
    rounds: int = 1
    comments: list[ReportComment] = Field(default_factory=list)
    disagreements: list[Disagreement] = Field(default_factory=list)
    arbitrations: list[Arbitration] = Field(default_factory=list)
    score_changes: list[ScoreChange] = Field(default_factory=list)
    revision_plan: list[RevisionItem] = Field(default_factory=list)
    unverified: list[UnverifiedItem] = Field(default_factory=list)
    metrics: ReviewMetrics
    verification: dict[str, Any] = Field(default_factory=dict)
    usage: dict[str, Any] = Field(default_factory=dict)
    history: list[dict[str, Any]] = Field(default_factory=list)
    signoff: dict[str, Any] | None = None


class MetaDecision(Frozen):
    """The meta-reviewer's verdict for one round."""

    round: int = 1
    recommendation: Recommendation
    confidence: float = Field(ge=0.0, le=1.0)
    revision_plan: list[RevisionItem] = Field(default_factory=list)
    unresolved: float = Field(default=0.0, description="score spread left after arbitration")
    next_round: bool = Field(default=False, description="another adversarial round follows")
