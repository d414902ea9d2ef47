"""Evidence-gathering nodes: retrieve, rerank, distill, assess sufficiency, calculate."""

from __future__ import annotations

import inspect
from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import EvidenceItem, Strategy
from papermind.domain.evidence import Evidence, Support
from papermind.workflows.deep_qa import calculator
from papermind.workflows.deep_qa.context import QAContext, Reranked
from papermind.workflows.deep_qa.distilling import distill_hits
from papermind.workflows.deep_qa.nodes.common import (
    ask,
    budget_exhausted,
    current_outcome,
    evidence_table,
    planned,
    prompt,
    step,
    task_of,
    with_outcome,
)
from papermind.workflows.deep_qa.schemas import ExpressionOut
from papermind.workflows.deep_qa.state import Assessment, QAState
from papermind.workflows.deep_qa.tools import DEFAULT_TOOL, tool_named

_ASSESS_VARS = frozenset({"question", "evidence"})
_CALC_VARS = frozenset({"question", "evidence"})


def _strategy(state: QAState) -> Strategy:
    return [s for s in state.get("strategies", []) if s.task_id == state.get("current")][-1]


async def retrieve(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """One retrieval round with the current strategy's tool (its row's runner in the tool
    table; the library search when the tool is not available)."""
    strategy = _strategy(state)
    tool = tool_named(strategy.tool)
    if tool.run is None or not tool.available(runtime.context):
        tool = tool_named(DEFAULT_TOOL)
    assert tool.run is not None
    return await tool.run(state, runtime, strategy)


async def rerank(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Reorder the new passages (with the reranker when one is configured) and keep the best."""
    hits = state.get("hits", [])
    keep = runtime.context.keep
    reranker = runtime.context.reranker
    if reranker is not None and len(hits) > 1:
        result = reranker.rerank(state.get("query", ""), hits, keep)
        answer = await result if inspect.isawaitable(result) else result
        ranked, how = ((answer.hits, answer.how) if isinstance(answer, Reranked)
                       else (answer, "reranker"))
    else:
        ranked, how = sorted(hits, key=lambda h: -h.score), "search score"
    kept = ranked[:keep]
    return {"hits": kept, "history": [step("rerank", f"kept {len(kept)} of {len(hits)} "
                                                     f"by {how}", state.get("current"))]}


async def distill(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Cut each kept passage down to the grounded quote(s) bearing on the sub-question."""
    task = task_of(state, state.get("current"))
    hits = state.get("hits", [])
    evidence = list(state.get("evidence", []))
    added, reused, notes = await distill_hits(runtime, task.id, task.question, hits, evidence)
    outcome = current_outcome(state)
    linked = [i for i in reused if i not in outcome.evidence_ids]
    outcome = outcome.model_copy(update={"evidence_ids": outcome.evidence_ids + linked
                                         + [e.id for e in added]})
    found = sum(e.evidence.found for e in added)
    summary = (f"{len(added)} new quote(s) from {len(hits)} passage(s), {found} found"
               + (f"; also bears on {', '.join(linked)}" if linked else ""))
    return {"evidence": evidence + added, "new_evidence": len(added), "notes": notes,
            "outcomes": with_outcome(state, outcome),
            "history": [step("distill", summary, task.id)]}


async def assess_sufficiency(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Decide: enough evidence, nothing new (novelty stop), out of bounds, or search again."""
    task = task_of(state, state.get("current"))
    ctx = runtime.context
    outcome = current_outcome(state)
    mine = [e for e in state.get("evidence", []) if e.id in outcome.evidence_ids]
    assessment: Assessment | None = None
    notes: list[str] = []
    if not outcome.evidence_ids and outcome.retrievals <= 1 and state.get("new_hits", 0) == 0:
        stop = "nothing found"
    elif state.get("new_hits", 0) == 0 or state.get("new_evidence", 0) == 0:
        stop = "novelty: the last retrieval brought nothing new"
    elif state.get("steps", 0) >= ctx.max_steps:
        stop = f"step bound reached ({ctx.max_steps} steps)"
    else:
        messages = prompt("assess_sufficiency", _ASSESS_VARS).render(
            question=planned(task.question), evidence=evidence_table(mine[-8:]))
        assessment, notes = await ask(runtime, "checker", messages, Assessment,
                                      "assess_sufficiency")
        stop = _stop_reason(assessment, outcome.retrievals, ctx, runtime)
    summary = stop or f"insufficient ({assessment.missing if assessment else '?'}); searching again"
    return {"assessment": assessment, "loop_stop": stop, "notes": notes,
            "history": [step("assess_sufficiency", summary, task.id)]}


def _stop_reason(assessment: Assessment | None, retrievals: int, ctx: QAContext,
                 runtime: Runtime[QAContext]) -> str:
    if assessment is not None and assessment.sufficient:
        return "sufficient"
    if retrievals >= ctx.max_retrievals_per_task:
        return f"retrieval bound for this task reached ({ctx.max_retrievals_per_task})"
    if budget_exhausted(runtime):
        return "token budget nearly spent"
    return ""


async def calculate(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Compute a numeric comparison with the safe calculator over earlier tasks' evidence."""
    task = task_of(state, state.get("current"))
    outcomes = state.get("outcomes", {})
    input_ids = [i for dep in task.depends_on for i in outcomes[dep].evidence_ids]
    inputs = [e for e in state.get("evidence", []) if e.id in input_ids]
    expression, notes = task.expression, list[str]()
    if not expression:
        messages = prompt("calculate", _CALC_VARS).render(
            question=planned(task.question), evidence=evidence_table(inputs[-8:]))
        out, notes = await ask(runtime, "planner", messages, ExpressionOut, "calculate")
        expression = out.expression if out else ""
    evidence = list(state.get("evidence", []))
    outcome = current_outcome(state).model_copy(update={"retrievals": 0})
    try:
        value = calculator.format_value(calculator.evaluate(expression))
    except calculator.CalculatorError as err:
        notes.append(f"{task.id}: calculator rejected {expression!r}: {err}")
        return {"outcomes": with_outcome(state, outcome), "notes": notes, "loop_stop": "",
                "steps": state.get("steps", 0) + 1,
                "history": [step("calculate", f"no result: {err}", task.id)]}
    item = _computed_item(f"E{len(evidence) + 1}", task.id, expression, value, inputs)
    outcome = outcome.model_copy(update={"evidence_ids": [item.id]})
    return {"evidence": [*evidence, item], "outcomes": with_outcome(state, outcome),
            "notes": notes, "loop_stop": "computed", "steps": state.get("steps", 0) + 1,
            "history": [step("calculate", f"{expression} = {value}", task.id)]}


def _computed_item(item_id: str, task_id: str, expression: str, value: str,
                   inputs: list[EvidenceItem]) -> EvidenceItem:
    """A calculator result: supported (by code) only when every input quote was found."""
    sources = ", ".join(e.id for e in inputs) or "the plan"
    found = bool(inputs) and all(e.evidence.found for e in inputs)
    reasons = [] if found else ["not all inputs were found in the papers"]
    return EvidenceItem(id=item_id, task_id=task_id, kind="computed", value=value,
                        evidence=Evidence(quote=f"{expression} = {value}",
                                          support=computed_support(found, sources),
                                          reasons=reasons))


def computed_support(found: bool, sources: str) -> Support:
    """The code verdict of a calculator result: supported when every input was found."""
    return Support(verdict="supported" if found else "not_enough", by="code",
                   reason=f"computed by the calculator from {sources}")
