"""The one node single-pass QA adds to the deep QA nodes it reuses."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import PlanTask, Strategy, TaskOutcome
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import step
from papermind.workflows.deep_qa.query import keywords
from papermind.workflows.deep_qa.state import QAState


async def prepare_search(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """One task (the question itself) searched once with hybrid search in the given papers."""
    question = state["question"]
    scope = list(state.get("paper_ids") or [])
    tool = "paper_search" if scope else "library_search"
    task = PlanTask(id="t1", question=question, tool=tool, paper_ids=scope)
    earlier = state.get("earlier") or []
    # a follow-up ('and on GPUs?') is searched with the question it follows
    query = f"{earlier[-1].question} {question}" if earlier else question
    reason = "single-pass QA always uses hybrid search" + (
        "; a follow-up, searched with the question before it" if earlier else "")
    strategy = Strategy(task_id="t1", query=query, mode="hybrid", keywords=keywords(query),
                        reason=reason, paper_ids=scope, tool=tool)
    where = f"{len(scope)} paper(s)" if scope else "the whole library"
    return {"plan": [task], "outcomes": {"t1": TaskOutcome(task_id="t1")}, "current": "t1",
            "strategies": [strategy], "query": query, "evidence": [], "seen_chunks": {},
            "steps": 0, "history": [step("prepare_search", f"hybrid search in {where}", "t1")]}


async def close_task(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Record the single task's outcome (for the report's outcome table)."""
    outcome = state.get("outcomes", {})["t1"]
    found = bool(outcome.evidence_ids)
    closed = outcome.model_copy(update={"state": "done" if found else "empty",
                                        "stop_reason": "single pass"})
    return {"outcomes": {"t1": closed}, "stop_reason": "single pass",
            "history": [step("close_task", f"{len(outcome.evidence_ids)} evidence item(s)",
                             "t1")]}
