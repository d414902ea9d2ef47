"""Graph state of the review panel: narrow input, message log with an id-deduplicating reducer."""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired, TypedDict

from papermind.domain import Paper
from papermind.domain.check import CheckReport
from papermind.domain.review import (
    Arbitration,
    Disagreement,
    MessageCheck,
    MetaDecision,
    ReviewMessage,
    ScoreChange,
)
from papermind.domain.scholar import FoundWork
from papermind.workflows.review.messages import keep_first, merge_messages, update_dict


class ReviewInput(TypedDict):
    """What a run starts from."""

    paper: Paper
    panel: list[str]
    check: NotRequired[CheckReport]
    """the model-free check's findings: facts the panel weighs"""


class ReviewState(TypedDict, total=False):
    """Everything the panel has said and checked so far."""

    paper: Paper
    panel: list[str]
    check: CheckReport
    round: int
    messages: Annotated[list[ReviewMessage], merge_messages]
    original_scores: Annotated[dict[str, float], keep_first]
    checks: Annotated[dict[str, MessageCheck], update_dict]
    judged: Annotated[list[str], operator.add]
    """ids of the checks the support judge has seen (each is judged once)"""
    disagreements: Annotated[list[Disagreement], operator.add]
    arbitrations: Annotated[list[Arbitration], operator.add]
    score_changes: Annotated[list[ScoreChange], operator.add]
    decisions: Annotated[list[MetaDecision], operator.add]
    history: Annotated[list[dict[str, Any]], operator.add]
    warnings: Annotated[list[str], operator.add]
    """steps that degraded because a model gave no valid output (workflows/model_output.py)"""
    signoff: dict[str, Any]
    related_work: list[FoundWork]
    """what the scholarly sources gave the contribution reviewer (online only), R1, R2..."""

