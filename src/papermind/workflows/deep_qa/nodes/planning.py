"""Planning nodes: plan, pick the next task, choose a strategy, reformulate, integrate, replan."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import PlanTask, Strategy, TaskOutcome
from papermind.domain.chunk import SearchMode
from papermind.workflows.deep_qa import query as q
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import (
    ask,
    budget_exhausted,
    current_outcome,
    earlier_turns,
    planned,
    prompt,
    step,
    task_of,
    with_outcome,
)
from papermind.workflows.deep_qa.plan import clean_plan, next_task
from papermind.workflows.deep_qa.schemas import PlanOut, TermsOut
from papermind.workflows.deep_qa.state import QAState
from papermind.workflows.deep_qa.tools import DEFAULT_TOOL, offered, tool_named

_PLAN_VARS = frozenset({"earlier", "question", "scope", "tools"})
_REPLAN_VARS = frozenset({"question", "task", "memory"})
_TERMS_VARS = frozenset({"query", "keywords"})
MAX_LISTED = 12
MAX_TERMS = 5
MAX_TERM_CHARS = 40
_SWITCH: dict[SearchMode, SearchMode] = {"bm25": "dense", "dense": "bm25", "hybrid": "bm25"}


async def plan(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Split the question into sub-tasks with tools and dependencies."""
    question = state["question"]
    messages = prompt("plan", _PLAN_VARS).render(
        earlier=earlier_turns(state), question=question,
        scope=_scope_line(state.get("paper_ids") or [], runtime.context),
        tools=offered(runtime.context))
    out, notes = await ask(runtime, "planner", messages, PlanOut, "plan")
    proposed = [t.to_task(i) for i, t in enumerate(out.tasks if out else [], start=1)]
    tasks, repairs = clean_plan(proposed, question)
    outcomes = {t.id: TaskOutcome(task_id=t.id) for t in tasks}
    summary = "; ".join(f"{t.id}: {t.question} [{t.tool}"
                        f"{', after ' + ','.join(t.depends_on) if t.depends_on else ''}]"
                        for t in tasks)
    return {"plan": tasks, "outcomes": outcomes, "steps": 0, "replans": 0, "seen_chunks": {},
            "evidence": [], "notes": notes + repairs, "memory": [f"plan: {summary}"],
            "history": [step("plan", f"{len(tasks)} task(s): {summary}")]}


async def pick_task(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """The next task in dependency order, or none when done or out of steps / budget."""
    stop = ""
    if state.get("steps", 0) >= runtime.context.max_steps:
        stop = f"step bound reached ({runtime.context.max_steps} steps)"
    elif budget_exhausted(runtime):
        stop = "token budget nearly spent; keeping the rest for the answer"
    task = None if stop else next_task(state.get("plan", []), state.get("outcomes", {}))
    if task is not None:
        return {"current": task.id, "history": [step("pick_task", f"next: {task.id} "
                                                      f"({task.question})", task.id)]}
    outcomes = dict(state.get("outcomes", {}))
    for task_id, outcome in outcomes.items():
        if outcome.state == "pending":
            outcomes[task_id] = outcome.model_copy(update={"state": "skipped",
                                                           "stop_reason": stop or "unreachable"})
    summary = stop or "all tasks finished"
    return {"current": None, "outcomes": outcomes, "stop_reason": summary,
            "history": [step("pick_task", summary)]}


async def choose_strategy(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Pick search mode (rule + hint, with reason), scope, year filter and related terms."""
    task = task_of(state, state.get("current"))
    tool, note = task.tool, ""
    if not tool_named(tool).available(runtime.context):
        tool, note = DEFAULT_TOOL, f"{tool_named(tool).unavailable}; used library search instead"
    choice = q.choose_mode(task.question, task.mode_hint)
    words = q.keywords(task.question)
    years = q.year_filter(f"{state['question']} {task.question}",
                          newest_year=runtime.context.newest_year)
    messages = prompt("choose_strategy", _TERMS_VARS).render(
        query=planned(task.question), keywords=planned(", ".join(words) or "-", "KEYWORDS"))
    out, notes = await ask(runtime, "planner", messages, TermsOut, "choose_strategy")
    related = [t.strip() for t in (out.related_terms if out else [])
               if 0 < len(t.strip()) <= MAX_TERM_CHARS][:MAX_TERMS]
    scope, scope_notes = _scope(task, state.get("paper_ids") or [], runtime)
    strategy = Strategy(task_id=task.id, query=q.expand(task.question, related), mode=choice.mode,
                        reason=choice.reason, keywords=words, related_terms=related,
                        year_min=years.year_min, year_max=years.year_max, paper_ids=scope,
                        tool=tool, note=note)
    if years.phrase:
        strategy = strategy.model_copy(update={"reason": f"{choice.reason}; years from "
                                                         f"'{years.phrase}'"})
    summary = f"{strategy.mode}: {strategy.reason}" + (f" ({note})" if note else "")
    return {"strategies": [strategy], "query": strategy.query,
            "notes": notes + scope_notes + ([note] if note else []),
            "history": [step("choose_strategy", summary, task.id)]}


def _scope_line(scope: list[str], ctx: QAContext) -> str:
    """The papers the planner may name (by their 8-character id) for one-paper searches."""
    listed = [e for e in ctx.catalog if not scope or e.paper_id in scope]
    if len(listed) > MAX_LISTED:
        listed = []
    head = "Only these papers are searched" if scope else "Search the whole library"
    if not listed:
        return f"{head}."
    return f"{head}. Papers (id for paper_ids):\n" + "\n".join(e.label() for e in listed)


def _scope(task: PlanTask, user_scope: list[str],
           runtime: Runtime[QAContext]) -> tuple[list[str], list[str]]:
    """Papers a task searches: the user's scope, narrowed by a one-paper task's ids."""
    if not tool_named(task.tool).scoped or not task.paper_ids:
        return list(user_scope), []
    catalog = [e.paper_id for e in runtime.context.catalog] or list(user_scope)
    known = []
    for wanted in task.paper_ids:
        matches = [p for p in catalog if wanted.strip().strip("[]") and
                   p.startswith(wanted.strip().strip("[]").lower())]
        if len(matches) == 1:
            known.append(matches[0])
    if user_scope:
        known = [p for p in known if p in user_scope]
    if not known:
        return list(user_scope), [f"{task.id}: planned paper ids not in scope; searched "
                                  "the whole scope"]
    return known, []


async def reformulate(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """A new round for the current task: the checker's query (or keywords) and another mode."""
    task = task_of(state, state.get("current"))
    last = [s for s in state.get("strategies", []) if s.task_id == task.id][-1]
    assessment = state.get("assessment")
    proposed = (assessment.next_query.strip() if assessment else "") or ""
    if not proposed or proposed.lower() == last.query.lower():
        missing = assessment.missing if assessment else ""
        proposed = " ".join(q.keywords(f"{task.question} {missing}", limit=10))
    mode = _SWITCH[last.mode]
    strategy = last.model_copy(update={
        "round": last.round + 1, "query": proposed, "mode": mode,
        "reason": f"reformulated after insufficient evidence; switched {last.mode} -> {mode}"})
    return {"strategies": [strategy], "query": proposed,
            "history": [step("reformulate", f"round {strategy.round}: '{proposed}' ({mode})",
                             task.id)]}


async def integrate(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Close the current task: record its outcome and a working-memory note."""
    outcome = current_outcome(state)
    found = bool(outcome.evidence_ids)
    reason = state.get("loop_stop") or ("sufficient" if found else "nothing found")
    closed = outcome.model_copy(update={"state": "done" if found else "empty",
                                        "stop_reason": reason})
    task = task_of(state, outcome.task_id)
    ids = ", ".join(outcome.evidence_ids) or "nothing"
    note = f"{task.id} ({task.question}): {ids} [{reason}]"
    needs_replan = (not found and not tool_named(task.tool).computes
                    and state.get("replans", 0) < runtime.context.max_replans
                    and state.get("steps", 0) < runtime.context.max_steps
                    and not budget_exhausted(runtime))
    return {"outcomes": with_outcome(state, closed), "memory": [note], "loop_stop": "",
            "replan_next": needs_replan,
            "history": [step("integrate", note, task.id)]}


async def replan(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Replace a task that found nothing with different sub-questions."""
    task = task_of(state, state.get("current"))
    messages = prompt("replan", _REPLAN_VARS).render(
        question=state["question"], task=planned(task.question),
        memory=planned("\n".join(state.get("memory", [])[-6:]) or "(nothing yet)", "MEMORY"))
    out, notes = await ask(runtime, "planner", messages, PlanOut, "replan")
    existing = state.get("plan", [])
    proposed = [t.to_task(i) for i, t in enumerate(out.tasks if out else [], start=1)]
    proposed = [t for t in proposed
                if t.question.strip().lower() not in {e.question.lower() for e in existing}]
    added: list[PlanTask] = []
    if proposed:
        added, repairs = clean_plan(proposed, state["question"], first_id=len(existing) + 1,
                                    known=[t.id for t in existing])
        notes += repairs
    outcomes = {**state.get("outcomes", {}), **{t.id: TaskOutcome(task_id=t.id) for t in added}}
    summary = ("; ".join(f"{t.id}: {t.question}" for t in added) if added
               else "no new sub-questions")
    return {"plan": [*existing, *added], "outcomes": outcomes,
            "replans": state.get("replans", 0) + 1, "notes": notes,
            "history": [step("replan", f"after {task.id} found nothing: {summary}", task.id)]}
