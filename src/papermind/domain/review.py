"""Review panel data: the message protocol's messages, grounding verdicts and the report."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.check import CheckFinding, CheckReport
from papermind.domain.evidence import Evidence, SupportVerdict, VerdictCounts
from papermind.domain.paper import Finding
from papermind.domain.scholar import FoundWork

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

    id: str = Field(description="unique id, e.g. 'r1.methodology_reviewer.3'")
    sender: str = Field(description="panel role of the sender ('editor', 'methodology_reviewer', "
                        "'devil', 'meta'... or 'human'); the panel's protocol checks who may "
                        "send what")
    receiver: str = Field(description="role the message is for, or 'all'")
    round: int = Field(default=1, description="adversarial round, 1-based")
    kind: MessageKind
    target: Target = Field(default_factory=Target)
    content: str = Field(min_length=1, description="what the sender says")
    confidence: float = Field(ge=0.0, le=1.0, description="sender's own confidence")
    references: list[str] = Field(default_factory=list, description="cited works as written")
    cited: str = Field(default="", description="line ids the model cited, e.g. '3:12-14'")
    quote: str = Field(default="", description="optional short quote the model gave")
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
    """What the grounding checker found for one message: two verdicts and a separate flag.

    ``found`` (code found the cited lines) and ``support`` (do they support the comment) are
    never merged with the references: a cited work missing from the bibliography is its own
    flag (``references_resolved``) that lowers the weight and keeps the comment from being
    called verified, but never removes its anchor.
    """

    message_id: str
    evidence: list[Evidence] = Field(default_factory=list)
    references: list[ReferenceCheck] = Field(default_factory=list)
    found: bool = Field(default=False, description="evidence given and all of it found")
    support: SupportVerdict = Field(default="unchecked", description="over all its evidence")
    references_resolved: bool = Field(
        default=True, description="every cited work is in the paper's bibliography")
    weight: float = Field(description="confidence after down-weighting what did not hold")
    notes: list[str] = Field(default_factory=list)

    @property
    def verified(self) -> bool:
        """Everything it cites holds: lines found AND supported, and every work resolved."""
        return self.found and self.support == "supported" and self.references_resolved

    @property
    def anchor(self) -> Anchor | None:
        """The first found anchor of its evidence."""
        return next((e.anchor for e in self.evidence if e.anchor is not None), None)


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

    reviewer: str = Field(description="panel role, e.g. 'methodology_reviewer'")
    name: str = Field(default="", description="display name, e.g. 'Methodology reviewer'")
    aspect: str = Field(description="what the score measures, e.g. 'novelty', 'method'")
    original: float
    final: float
    change: str | None = Field(default=None, description="'from X to Y because ...' or None")


class RevisionItem(Frozen):
    """One step of the prioritised revision plan."""

    priority: int = Field(description="1 = most important")
    action: str
    addresses: list[str] = Field(default_factory=list, description="message ids it answers")
    evidence: list[dict[str, Any]] = Field(
        default_factory=list, description="evidence of the messages it answers, in the one "
        "evidence JSON shape (papermind.reports.evidence_json)")


ReportFlagKind = Literal["unresolved_reference", "recommendation_contradicts_scores"]


class ReportFlag(Frozen):
    """Something in the report a reader must weigh: said separately, never merged."""

    kind: ReportFlagKind
    message: str = Field(description="what was flagged, in words")
    message_id: str | None = Field(default=None, description="the comment flagged, if any")


class ReportComment(Frozen):
    """A message as shown in the report, with its two verdicts and its flags."""

    message_id: str
    label: str = Field(default="", description="what people read, e.g. "
                       "'Methodology reviewer, comment 2'")
    sender: str
    kind: str
    round: int
    target: str
    content: str
    confidence: float
    weight: float
    found: bool = Field(description="code found its cited lines (anchor in ``evidence``)")
    support: SupportVerdict = Field(description="support of the comment by its cited lines")
    verified: bool = Field(description="found AND supported, and every cited work resolved")
    cited: str = Field(default="", description="line ids as the model cited them")
    quote: str = ""
    reply_to: str | None = None
    evidence: list[dict[str, Any]] = Field(
        default_factory=list, description="evidence items in the one evidence JSON shape "
        "(papermind.reports.evidence_json): quote, found, anchor{...}, support{...}")
    references: list[ReferenceCheck] = Field(default_factory=list)
    flags: list[ReportFlag] = Field(default_factory=list, description="e.g. unresolved_reference")


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
        default=0.0, description="share of final comments and plan items mapping to a message "
        "with a found anchor (share found)")
    comments_supported: int = 0
    share_supported: float = Field(
        default=0.0, description="share of final comments and plan items mapping to a message "
        "whose anchor is found AND supported (verified)")


class UnverifiedItem(Frozen):
    """Evidence that is not verified (not found, or found but not supported), or a cited
    work that is not in the bibliography."""

    kind: Literal["evidence", "reference"]
    text: str = Field(description="the cited line ids / quote, or the cited work")
    message_id: str
    sender: str
    reason: str = ""
    evidence: dict[str, Any] | None = Field(default=None, description="evidence JSON shape")


class ReviewVerification(VerdictCounts):
    """Comment-level counts of both verdicts, and of the separate reference flag."""

    share_found: float = 0.0
    share_supported: float = 0.0
    references_unresolved: int = Field(default=0, description="comments citing a work that "
                                       "is not in the bibliography (a separate flag)")


class ReviewReport(Frozen):
    """The panel's report (JSON form; Markdown and HTML are rendered from it)."""

    kind: Literal["review"] = "review"
    paper_id: str
    title: str
    language: str = Field(default="en", description="language of the report's own text "
                          "(ISO 639-1); quotes keep the paper's language")
    disclaimer: str = DISCLAIMER
    demo_quality: bool = False
    panel: list[str] = Field(default_factory=list, description="panel roles, in table order")
    names: dict[str, str] = Field(default_factory=dict,
                                  description="display name of each panel role")
    models: dict[str, str] = Field(default_factory=dict)
    findings: list[Finding] = Field(default_factory=list, description="hidden text etc.")
    check: CheckReport | None = Field(default=None, description="the model-free check the "
                                      "panel started from (papermind check)")
    unaddressed: list[CheckFinding] = Field(
        default_factory=list, description="high-severity check findings no comment addresses")
    scoring_note: str = Field(default="", description="why there are no scores (offline)")
    editor_summary: str = ""
    scores: list[FinalScore] = Field(default_factory=list)
    recommendation: Recommendation | None = None
    recommendation_confidence: float = 0.0
    recommendation_withheld: str = Field(
        default="", description="why the panel's recommendation is not given although it "
        "scored: too few comments cite lines found in the paper")
    rounds: int = 1
    comments: list[ReportComment] = Field(default_factory=list)
    disagreements: list[Disagreement] = Field(default_factory=list)
    arbitrations: list[Arbitration] = Field(default_factory=list)
    score_changes: list[ScoreChange] = Field(default_factory=list)
    revision_plan: list[RevisionItem] = Field(default_factory=list)
    unverified: list[UnverifiedItem] = Field(default_factory=list)
    flags: list[ReportFlag] = Field(default_factory=list, description="report-level flags, "
                                    "e.g. a recommendation that contradicts the scores")
    metrics: ReviewMetrics
    verification: ReviewVerification = Field(default_factory=ReviewVerification)
    usage: dict[str, Any] = Field(default_factory=dict)
    history: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list, description="steps that degraded: a "
                                "model gave no valid output, so the step contributed nothing")
    signoff: dict[str, Any] | None = None
    related_work: list[FoundWork] = Field(
        default_factory=list, description="works the scholarly sources gave the contribution "
        "reviewer (online only), in the order of their ids R1, R2...; external, never verified")


class MetaDecision(Frozen):
    """The meta-reviewer's verdict for one round."""

    round: int = 1
    recommendation: Recommendation
    confidence: float = Field(ge=0.0, le=1.0)
    revision_plan: list[RevisionItem] = Field(default_factory=list)
    unresolved: float = Field(default=0.0, description="score spread left after arbitration")
    next_round: bool = Field(default=False, description="another adversarial round follows")
