"""Deep-reading report: checked points, credibility, rewrites, questions and provenance."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.evidence import Evidence, VerificationSummary

PointKind = Literal["method", "derivation", "experiment", "result"]
Verdict = Literal["supported", "contradicted", "not_enough", "unchecked", "not_found"]
"""A point's support: the evidence verdicts combined; 'not_found' when no citation was found."""
Credibility = Literal["high", "medium", "low"]
ChangeKind = Literal["added", "removed", "revised"]
PointSource = Literal["model", "extracted"]
"""'model': the reader model wrote the point and cited lines; 'extracted': code selected
the paper's own sentences (anchor found by construction) and the model only explains them."""


class ReadingPoint(Frozen):
    """One point of the analysis with the quotes it rests on and the checker's verdict."""

    id: str = Field(description="'M1' method, 'D1' derivation step, 'E1' experiment, 'R1' result")
    kind: PointKind
    text: str = Field(description="the principle / what the step states / the finding")
    follows_from: str = Field(default="", description="derivation: what the step follows from")
    symbols: list[str] = Field(default_factory=list, description="derivation: 'symbol: meaning'")
    datasets: list[str] = Field(default_factory=list, description="experiment: datasets used")
    baselines: list[str] = Field(default_factory=list, description="experiment: compared against")
    metrics: list[str] = Field(default_factory=list, description="experiment: metrics reported")
    ablations: list[str] = Field(default_factory=list, description="experiment: ablations run")
    supports: str = Field(default="", description="result: the claim this result supports")
    evidence: list[Evidence] = Field(default_factory=list, description="cited lines, checked")
    verdict: Verdict = Field(default="unchecked", description="support of the point by its "
                             "cited text (code checks, then the checker model)")
    verdict_note: str = Field(default="", description="why, in the checker's words or code's")
    verdict_by: str = Field(default="", description="'code' or 'checker:<model>'")
    verified: bool = Field(
        default=False, description="a citation was found AND the point is supported by it")
    source: PointSource = Field(default="model", description="who chose the point's text")
    explanation: str = Field(default="", description="the model's plain-language explanation "
                             "of the passage, kept only when code checks passed")
    explanation_note: str = Field(default="", description="why an explanation was dropped")

    @property
    def found(self) -> bool:
        """At least one citation was found in the paper."""
        return any(e.found for e in self.evidence)


class Question(Frozen):
    """A follow-up question built on verified points."""

    text: str
    builds_on: list[str] = Field(default_factory=list, description="ids of verified points "
                                 "or of sentences code found (L1: a limitation, assumption...)")
    why: str = Field(default="", description="what thinking the question pushes")
    anchors: list[Anchor] = Field(default_factory=list, description="the lines it builds on")


class DroppedQuestion(Frozen):
    """A proposed question that was not kept, and why."""

    text: str
    builds_on: list[str] = Field(default_factory=list)
    reason: str


class PointChange(Frozen):
    """How one point changed between two analysis rounds."""

    change: ChangeKind
    kind: PointKind
    before: str = Field(default="", description="text before (empty when added)")
    after: str = Field(default="", description="text after (empty when removed)")
    before_id: str | None = None
    after_id: str | None = None
    note: str = Field(default="", description="e.g. 'quotes replaced', 'now verified'")


class Revision(Frozen):
    """What a rewrite changed, and the feedback that prompted it."""

    round: int = Field(description="1 for the first rewrite")
    feedback: str = Field(description="the checker feedback shown to the reader")
    credibility_before: Credibility
    unverified_quotes_before: int = Field(default=0, description="citations not found AND "
                                          "supported before the rewrite")
    changes: list[PointChange] = Field(default_factory=list)
    kept: int = Field(default=0, description="points carried over unchanged")

    def summary(self) -> str:
        """One line: counts of kept / revised / added / removed points."""
        counts = {k: sum(c.change == k for c in self.changes)
                  for k in ("revised", "added", "removed")}
        return (f"rewrite {self.round}: kept {self.kept}, revised {counts['revised']}, "
                f"added {counts['added']}, removed {counts['removed']}")


class CheckRound(Frozen):
    """One pass of the hallucination checker."""

    round: int = Field(description="0 = first analysis, 1 = after the first rewrite...")
    credibility: Credibility
    points: int = 0
    found_points: int = Field(default=0, description="points with a citation found")
    verified_points: int = Field(default=0, description="points found AND supported")
    quotes: int = Field(default=0, description="citations (line ranges) given")
    found_quotes: int = Field(default=0, description="citations found in the paper")
    verified_quotes: int = Field(default=0, description="citations found AND supported")
    notes: list[str] = Field(default_factory=list, description="caps, parse warnings")


class ContextSection(Frozen):
    """How one section of the paper went into the reader's context."""

    title: str
    kind: str = "other"
    tokens_full: int = 0
    tokens_kept: int = 0
    sentences_full: int = 0
    sentences_kept: int = 0
    omitted: bool = Field(default=False, description="left out entirely (e.g. references)")
    passages: int = Field(default=0, description="passages taken from it (extractive reading)")


class ContextInfo(Frozen):
    """What the reader saw: the full paper or an extractive condensation of it."""

    condensed: bool = False
    method: Literal["full", "extractive", "passages", "sections"] = Field(
        default="full", description="full paper; condensed (extractive); passages code chose "
        "from the whole paper; or read section by section and merged")
    budget_tokens: int = Field(default=0, description="tokens allowed for the paper text")
    paper_tokens: int = Field(default=0, description="tokens of the full paper text")
    context_tokens: int = Field(default=0, description="tokens of the text given to the reader")
    sections: list[ContextSection] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class HistoryEntry(Frozen):
    """One node execution."""

    node: str
    started: str = Field(description="ISO-8601 UTC")
    finished: str = Field(description="ISO-8601 UTC")
    summary: str


class NodeUsage(Frozen):
    """Token usage of one node (or role)."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0


class ReportUsage(Frozen):
    """Token usage of the whole job."""

    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    by_node: dict[str, NodeUsage] = Field(default_factory=dict)
    by_role: dict[str, NodeUsage] = Field(default_factory=dict)


class ReadingReport(Frozen):
    """The deep-reading report of one paper."""

    kind: Literal["deep_reading"] = "deep_reading"
    job_id: str = ""
    paper_id: str
    title: str = ""
    language: str = Field(default="en", description="language of the report's own text "
                          "(ISO 639-1); quotes keep the paper's language")
    demo_quality: bool = False
    models: dict[str, str] = Field(default_factory=dict, description="role -> model")
    usage: ReportUsage = Field(default_factory=ReportUsage)
    history: list[HistoryEntry] = Field(default_factory=list)
    verification: VerificationSummary = Field(default_factory=VerificationSummary)
    credibility: Credibility = "medium"
    rounds: list[CheckRound] = Field(default_factory=list)
    rewrites: int = 0
    revisions: list[Revision] = Field(default_factory=list)
    points: list[ReadingPoint] = Field(default_factory=list)
    questions: list[Question] = Field(default_factory=list)
    dropped_questions: list[DroppedQuestion] = Field(default_factory=list)
    context: ContextInfo = Field(default_factory=ContextInfo)
    warnings: list[str] = Field(default_factory=list)

    def evidence(self) -> list[Evidence]:
        """Every evidence item of every point, in order."""
        return [e for p in self.points for e in p.evidence]
