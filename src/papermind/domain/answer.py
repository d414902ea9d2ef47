"""Question answering over the library: plan, evidence table, contradictions, cited answer."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.chunk import SearchMode
from papermind.domain.evidence import Evidence, SupportVerdict, VerificationSummary

Tool = str
"""A QA tool's name: a row of the tool table (workflows/deep_qa/tools.py), which checks
the planner's choices; 'library_search' by default."""
TaskState = Literal["pending", "done", "empty", "skipped"]
AnswerStatus = Literal["answered", "extractive", "insufficient_evidence"]
QAKind = Literal["deep_qa", "cited_qa"]


class PlanTask(Frozen):
    """One sub-question of a plan and the tool it needs."""

    id: str = Field(description="'t1', 't2'... unique within the plan")
    question: str = Field(description="the sub-question, answerable on its own")
    tool: Tool = Field(default="library_search", description="the tool this task needs")
    depends_on: list[str] = Field(default_factory=list, description="ids of earlier tasks")
    mode_hint: SearchMode | None = Field(default=None, description="the planner's search hint")
    paper_ids: list[str] = Field(default_factory=list, description="one-paper search scope")
    expression: str = Field(default="", description="arithmetic for calculator tasks")


class Strategy(Frozen):
    """How one retrieval round of a task searches, and why."""

    task_id: str
    round: int = Field(default=1, description="1 for the first retrieval, 2+ for reformulations")
    query: str
    mode: SearchMode
    reason: str = Field(description="why this mode: the rule that fired and the planner's hint")
    keywords: list[str] = Field(default_factory=list)
    related_terms: list[str] = Field(default_factory=list, description="synonyms from the model")
    year_min: int | None = None
    year_max: int | None = None
    paper_ids: list[str] = Field(default_factory=list, description="search scope; empty = all")
    tool: Tool = "library_search"
    note: str = Field(default="", description="e.g. why a disabled tool was replaced")


class EvidenceItem(Frozen):
    """A row of the evidence table: a quote (or computed value) with its source."""

    id: str = Field(description="'E1', 'E2'... cited by the answer")
    task_id: str
    kind: Literal["quote", "computed", "web"] = "quote"
    paper_id: str = ""
    title: str = ""
    year: int | None = None
    section: str = ""
    chunk_id: str = ""
    evidence: Evidence = Field(description="the quote and what grounding found")
    value: str = Field(default="", description="result of a calculator task")


class TaskOutcome(Frozen):
    """What happened to one plan task."""

    task_id: str
    state: TaskState = "pending"
    retrievals: int = 0
    evidence_ids: list[str] = Field(default_factory=list)
    stop_reason: str = ""


class Contradiction(Frozen):
    """Two evidence items that disagree, with both anchors and the papers' years."""

    first: str = Field(description="evidence id")
    second: str = Field(description="evidence id")
    note: str = Field(description="what they disagree about")
    first_paper: str = ""
    second_paper: str = ""
    first_year: int | None = None
    second_year: int | None = None
    first_anchor: Anchor | None = None
    second_anchor: Anchor | None = None


class Citation(Frozen):
    """One citation of an answer sentence: found by code, its support of the sentence judged."""

    evidence_id: str
    paper_id: str = ""
    evidence: Evidence = Field(description="the cited lines re-checked against the sentence")


class AnswerSentence(Frozen):
    """One sentence of the answer, the evidence it cites and whether that supports it."""

    text: str
    cites: list[str] = Field(default_factory=list, description="evidence ids as the model gave them")
    citations: list[Citation] = Field(default_factory=list, description="filled by verification")
    support: SupportVerdict = Field(default="unchecked",
                                    description="support of THIS sentence by its citations")
    reason: str = Field(default="", description="why, in code's or the checker's words")
    verified: bool = Field(default=False,
                           description="a citation was found AND the sentence is supported")
    composed: bool = Field(default=False, description="written by code to state a "
                           "disagreement between its two citations (not a model's claim)")


class Step(Frozen):
    """One entry of the action history."""

    node: str
    at: str = Field(description="ISO time the node finished")
    summary: str
    task_id: str | None = None


class Turn(Frozen):
    """An earlier question of the same conversation and the answer it got (context for a
    follow-up question; each turn is its own job with its own report)."""

    question: str
    answer: str = Field(default="", description="the answer's text, [E1] markers included")
    job_id: str = ""


class QAReport(Frozen):
    """The full output of a QA run (deep or single-pass)."""

    kind: QAKind
    question: str
    paper_ids: list[str] = Field(default_factory=list, description="scope; empty = whole library")
    title: str = ""
    language: str = Field(default="en", description="language of the report's own text "
                          "(ISO 639-1); quotes keep the paper's language")
    status: AnswerStatus
    sentences: list[AnswerSentence] = Field(default_factory=list)
    dropped: list[AnswerSentence] = Field(
        default_factory=list, description="sentences the model wrote that their citations do "
                                          "not support (not part of the answer), with why")
    plan: list[PlanTask] = Field(default_factory=list)
    outcomes: list[TaskOutcome] = Field(default_factory=list)
    strategies: list[Strategy] = Field(default_factory=list)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    history: list[Step] = Field(default_factory=list)
    stop_reason: str = ""
    notes: list[str] = Field(default_factory=list, description="warnings and degradations")
    demo_quality: bool = False
    models: dict[str, str] = Field(default_factory=dict)
    usage: dict[str, object] = Field(default_factory=dict)
    verification: VerificationSummary = Field(default_factory=VerificationSummary)

    @property
    def text(self) -> str:
        """The answer as plain text with [E1] markers."""
        return " ".join(
            s.text + ("".join(f" [{c}]" for c in s.cites) if s.cites else "")
            for s in self.sentences)

    @property
    def source_papers(self) -> list[str]:
        """Papers cited by verified citations, in first-cited order."""
        seen: list[str] = []
        for sentence in self.sentences:
            for citation in sentence.citations:
                if citation.evidence.verified and citation.paper_id not in seen:
                    seen.append(citation.paper_id)
        return seen
