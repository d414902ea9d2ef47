"""The one node single-pass QA adds to the deep QA nodes it reuses."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import PlanTask, Strategy, TaskOutcome
from papermind.i18n.scripts import has_cjk
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import ask, prompt, step
from papermind.workflows.deep_qa.query import keywords
from papermind.workflows.deep_qa.schemas import TermsOut
from papermind.workflows.deep_qa.state import QAState

_TRANSLATE = frozenset({"query"})


async def prepare_search(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """One task (the question itself) searched once with hybrid search in the given papers;
    a Chinese or Japanese question gets English search terms from the model (one call)."""
    question = state["question"]
    scope = list(state.get("paper_ids") or [])
    tool = "paper_search" if scope else "library_search"
    task = PlanTask(id="t1", question=question, tool=tool, paper_ids=scope)
    earlier = state.get("earlier") or []
    # a follow-up ('and on GPUs?') is searched with the question it follows
    asked = f"{earlier[-1].question} {question}" if earlier else question
    terms, notes = await _english_terms(runtime, question) if has_cjk(question) else ([], [])
    query = " ".join([asked, *terms])
    reason = "single-pass QA always uses hybrid search" + (
        "; a follow-up, searched with the question before it" if earlier else "") + (
        "; the question translated into English search terms" if terms else "")
    strategy = Strategy(task_id="t1", query=query, mode="hybrid", keywords=keywords(query),
                        related_terms=terms, reason=reason, paper_ids=scope, tool=tool)
    where = f"{len(scope)} paper(s)" if scope else "the whole library"
    return {"plan": [task], "outcomes": {"t1": TaskOutcome(task_id="t1")}, "current": "t1",
            "strategies": [strategy], "query": asked, "evidence": [], "seen_chunks": {},
            "steps": 0, "notes": notes,
            "history": [step("prepare_search", f"hybrid search in {where}", "t1")]}


async def _english_terms(runtime: Runtime[QAContext], question: str) -> tuple[list[str], list[str]]:
    """The model's English search terms for a CJK question (none, and a note, if it fails:
    the glossary's terms in ``keywords`` still apply)."""
    out, notes = await ask(runtime, "planner", prompt("translate_query", _TRANSLATE).render(
        query=question), TermsOut, "prepare_search")
    terms = [t.strip() for t in (out.related_terms if out else []) if t.strip()]
    return terms[:8], notes


async def close_task(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Record the single task's outcome (for the report's outcome table)."""
    outcome = state.get("outcomes", {})["t1"]
    found = bool(outcome.evidence_ids)
    closed = outcome.model_copy(update={"state": "done" if found else "empty",
                                        "stop_reason": "single pass"})
    return {"outcomes": {"t1": closed}, "stop_reason": "single pass",
            "history": [step("close_task", f"{len(outcome.evidence_ids)} evidence item(s)",
                             "t1")]}
