"""Helpers shared by the deep QA nodes: prompts, model calls that degrade, history, budget."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TypeVar

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel

from papermind.domain.answer import EvidenceItem, PlanTask, Step, TaskOutcome
from papermind.domain.paper import Paper
from papermind.llm import PromptTemplate, fence_untrusted
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.state import QAState
from papermind.workflows.model_output import structured_or_none

T = TypeVar("T", bound=BaseModel)
PROMPTS = Path(__file__).resolve().parent.parent / "prompts"
QUOTE_CHARS = 600
"""Characters of cited text shown per evidence item (a cited line of text input can be a
whole paragraph)."""


@cache
def prompt(name: str, variables: frozenset[str]) -> PromptTemplate:
    """The prompt file ``prompts/<name>.md`` checked against ``variables``."""
    return PromptTemplate.load(PROMPTS / f"{name}.md", variables)


def earlier_turns(state: QAState) -> str:
    """The conversation so far, fenced as data, for a follow-up's prompts ('' when none)."""
    turns = state.get("earlier") or []
    if not turns:
        return ""
    lines = "\n".join(f"Q{n}: {t.question}\nA{n}: {t.answer or '(no answer)'}"
                      for n, t in enumerate(turns, start=1))
    return ("This question follows up earlier turns of the conversation (context for what "
            "the new question refers to; only the evidence counts as a source):\n"
            + fence_untrusted(lines, "CONVERSATION"))


def planned(text: str, label: str = "SUBQUESTION") -> str:
    """Text the planner model wrote (a sub-question, its keywords, the working memory),
    fenced as data like the papers: it reaches other prompts only inside a fence."""
    return fence_untrusted(text, label)


def step(node: str, summary: str, task_id: str | None = None) -> Step:
    """A history entry stamped now."""
    return Step(node=node, at=datetime.now(UTC).isoformat(timespec="seconds"),
                summary=summary, task_id=task_id)


async def ask(runtime: Runtime[QAContext], role: str, messages: list[BaseMessage],
              schema: type[T], node: str) -> tuple[T | None, list[str]]:
    """The model's structured reply, or None and the policy's warning (model_output.py)."""
    return await structured_or_none(runtime.context.gateway, role, messages, schema, node=node,
                                    outcome="used the deterministic fallback")


def tokens_used(runtime: Runtime[QAContext]) -> int:
    return runtime.context.gateway.usage.total().tokens


def budget_exhausted(runtime: Runtime[QAContext]) -> bool:
    """True when the loop should stop to keep the budget's reserve for the answer."""
    budget = runtime.context.token_budget or runtime.context.gateway.token_budget
    if not budget:
        return False
    return tokens_used(runtime) >= budget * (1.0 - runtime.context.budget_reserve)


def current_outcome(state: QAState) -> TaskOutcome:
    task_id = state.get("current") or ""
    return state.get("outcomes", {}).get(task_id, TaskOutcome(task_id=task_id))


def with_outcome(state: QAState, outcome: TaskOutcome) -> dict[str, TaskOutcome]:
    return {**state.get("outcomes", {}), outcome.task_id: outcome}


def task_of(state: QAState, task_id: str | None) -> PlanTask:
    for task in state.get("plan", []):
        if task.id == task_id:
            return task
    raise KeyError(task_id)


def evidence_table(items: list[EvidenceItem], label: str = "EVIDENCE") -> str:
    """Compact evidence lines for a prompt, fenced as untrusted data."""
    if not items:
        return "(none)"
    lines = []
    for item in items:
        year = f", {item.year}" if item.year else ""
        text = item.value or item.evidence.matched_text or item.evidence.quote
        lines.append(f"[{item.id}] ({item.title[:40] or item.paper_id[:8]}{year}) "
                     f"{text[:QUOTE_CHARS]}")
    return fence_untrusted("\n".join(lines), label)


class PaperCache:
    """Papers loaded once per node call."""

    def __init__(self, runtime: Runtime[QAContext]) -> None:
        self._source = runtime.context.papers
        self._papers: dict[str, Paper] = {}

    def get(self, paper_id: str) -> Paper:
        if paper_id not in self._papers:
            self._papers[paper_id] = self._source.get(paper_id)
        return self._papers[paper_id]
