"""Plan hygiene and scheduling: valid ids and dependencies, execution in dependency order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from papermind.domain.answer import PlanTask, TaskOutcome
from papermind.workflows.deep_qa.tools import DEFAULT_TOOL, tool_named

MAX_TASKS = 6


def clean_plan(tasks: Sequence[PlanTask], question: str, *, first_id: int = 1,
               known: Sequence[str] = ()) -> tuple[list[PlanTask], list[str]]:
    """Tasks in a valid execution order, numbered in that order, dependencies repaired.

    Unknown and self dependencies are dropped, cycles broken; ``known`` are ids of tasks
    that already exist (a replan may depend on them). Returns the tasks and notes on what
    was repaired. An empty plan becomes one library search for the whole question.
    """
    notes: list[str] = []
    tasks = [t for t in tasks if t.question.strip()][:MAX_TASKS]
    if not tasks:
        return [PlanTask(id=f"t{first_id}", question=question)], ["empty plan: one search task"]
    unique = _unique_ids(tasks, known)
    valid = {t.id for t in unique} | set(known)
    repaired = []
    for task in unique:
        kept = [d for d in dict.fromkeys(task.depends_on) if d in valid and d != task.id]
        if len(kept) != len(task.depends_on):
            notes.append(f"{task.id}: dropped unknown or self dependencies")
        repaired.append(task.model_copy(update={"depends_on": kept}))
    ordered, cycle_notes = _topological(repaired, known)
    rename = {t.id: f"t{first_id + i}" for i, t in enumerate(ordered)}
    final = []
    for task in ordered:
        tool = task.tool
        if tool_named(tool).computes and not task.expression and not task.depends_on:
            tool = DEFAULT_TOOL
            notes.append(f"{rename[task.id]}: {task.tool} task without numbers or inputs; "
                         "searching instead")
        final.append(task.model_copy(update={
            "id": rename[task.id], "tool": tool,
            "depends_on": [rename.get(d, d) for d in task.depends_on]}))
    return final, notes + cycle_notes


def _unique_ids(tasks: Sequence[PlanTask], known: Sequence[str]) -> list[PlanTask]:
    """Distinct ids: a duplicate, or an id clashing with a known task, gets a fresh one."""
    used = set(known)
    unique = []
    for index, task in enumerate(tasks, start=1):
        task_id = task.id.strip() or f"task{index}"
        if task_id in used:
            task_id = f"{task_id}#{index}"
        used.add(task_id)
        unique.append(task.model_copy(update={"id": task_id}))
    return unique


def _topological(tasks: list[PlanTask], known: Sequence[str]) -> tuple[list[PlanTask], list[str]]:
    done = set(known)
    pending = list(tasks)
    ordered: list[PlanTask] = []
    notes: list[str] = []
    while pending:
        ready = [t for t in pending if all(d in done for d in t.depends_on)]
        if not ready:  # a cycle: release the first task's dependencies on pending tasks
            stuck = pending[0]
            pending[0] = stuck.model_copy(update={"depends_on": [d for d in stuck.depends_on
                                                                 if d in done]})
            ready = [pending[0]]
            notes.append(f"{stuck.id}: broke a dependency cycle")
        task = ready[0]
        ordered.append(task)
        done.add(task.id)
        pending = [t for t in pending if t.id != task.id]
    return ordered, notes


def next_task(plan: Sequence[PlanTask], outcomes: Mapping[str, TaskOutcome]) -> PlanTask | None:
    """The first pending task whose dependencies are all finished (done, empty or skipped)."""
    finished = {tid for tid, o in outcomes.items() if o.state != "pending"}
    for task in plan:
        if task.id in finished:
            continue
        if all(dep in finished for dep in task.depends_on):
            return task
    return None
