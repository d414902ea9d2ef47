"""Runtime context of the review graph: collaborators and settings values, no globals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from papermind.domain import Paper
from papermind.domain.scholar import FoundWork
from papermind.llm import Gateway
from papermind.workflows.ports import Grounder

T = TypeVar("T", bound=BaseModel)


class StructuredModel(Protocol):
    """The part of papermind.llm.Gateway the panel uses."""

    async def structured(self, role: str, messages: Sequence[BaseMessage], schema: type[T],
                         *, node: str | None = None) -> T:
        ...


class RelatedWorkFinder(Protocol):
    """Finds published work related to a paper (the scholarly sources; absent offline)."""

    async def find(self, paper: Paper) -> list[FoundWork]:
        ...


@dataclass
class ReviewContext:
    """Collaborators and knobs; services build it from Settings."""

    gateway: Gateway
    grounder: Grounder
    second_round_threshold: float = 2.0
    max_rounds: int = 2
    signoff: bool = False
    input_chars: int = 6000
    max_comments: int = 4
    unverified_weight: float = 0.5
    related_work: RelatedWorkFinder | None = None
    """online only: related papers for the reviewers whose panel row asks for them"""
