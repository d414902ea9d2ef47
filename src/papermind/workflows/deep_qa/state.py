"""Deep QA state: the question, working memory, evidence and the complete action history."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from pydantic import BaseModel, Field

from papermind.domain.answer import (
    AnswerSentence,
    AnswerStatus,
    Contradiction,
    EvidenceItem,
    PlanTask,
    Step,
    Strategy,
    TaskOutcome,
    Turn,
)
from papermind.domain.chunk import SearchHit


class Assessment(BaseModel):
    """The checker's verdict on one task's evidence (also the structured-output schema)."""

    sufficient: bool = Field(description="true when the evidence answers the sub-question")
    missing: str = Field(default="", description="what is still missing, briefly")
    next_query: str = Field(default="", description="a reformulated search query if not")


class QAInput(TypedDict, total=False):
    """What a caller passes in."""

    question: str
    paper_ids: list[str]
    earlier: list[Turn]


class QAOutput(TypedDict, total=False):
    """What the service reads back."""

    plan: list[PlanTask]
    outcomes: dict[str, TaskOutcome]
    strategies: Annotated[list[Strategy], operator.add]
    evidence: list[EvidenceItem]
    contradictions: list[Contradiction]
    sentences: list[AnswerSentence]
    dropped: list[AnswerSentence]
    status: AnswerStatus
    stop_reason: str
    history: Annotated[list[Step], operator.add]
    notes: Annotated[list[str], operator.add]


class QAState(QAInput, QAOutput, total=False):
    """Everything checkpointed between nodes."""

    memory: Annotated[list[str], operator.add]
    current: str | None
    query: str
    hits: list[SearchHit]
    seen_chunks: dict[str, list[str]]
    new_hits: int
    new_evidence: int
    steps: int
    replans: int
    assessment: Assessment | None
    loop_stop: str
    replan_next: bool
