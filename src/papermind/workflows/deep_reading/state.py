"""Graph state of a deep reading: narrow input, accumulated history and rounds."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from papermind.domain import Evidence
from papermind.domain.reading import (
    CheckRound,
    ContextInfo,
    Credibility,
    DroppedQuestion,
    HistoryEntry,
    Question,
    ReadingPoint,
    Revision,
)


class ReadingInput(TypedDict):
    """What a caller passes in: the id of a paper the context's PaperSource can load."""

    paper_id: str


class ReadingState(TypedDict, total=False):
    """Everything the nodes read and write; lists marked ``operator.add`` accumulate."""

    paper_id: str
    title: str
    extractive: bool
    context_chunks: list[str]
    passages: list[ReadingPoint]
    """Extractive reading: the points code made from its passages, not yet explained."""
    question_sources: list[Evidence]
    """Sentences code found about assumptions, limitations and future work, cited."""
    context_info: ContextInfo
    max_rewrites: int
    reask_explanations: bool
    points: list[ReadingPoint]
    checked: bool
    credibility: Credibility
    feedback: str
    rewrites: int
    rounds: Annotated[list[CheckRound], operator.add]
    revisions: Annotated[list[Revision], operator.add]
    questions: list[Question]
    dropped_questions: list[DroppedQuestion]
    history: Annotated[list[HistoryEntry], operator.add]
    warnings: Annotated[list[str], operator.add]
