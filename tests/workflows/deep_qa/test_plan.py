"""Plan hygiene: ids in execution order, bad dependencies repaired, cycles broken."""

from __future__ import annotations

from papermind.domain.answer import PlanTask, TaskOutcome
from papermind.workflows.deep_qa.plan import clean_plan, next_task


def task(tid: str, question: str, *deps: str, tool: str = "library_search") -> PlanTask:
    return PlanTask(id=tid, question=question, depends_on=list(deps), tool=tool)  # type: ignore[arg-type]


def test_numbered_in_dependency_order() -> None:
    tasks, notes = clean_plan([task("c", "C?", "a", "b"), task("b", "B?", "a"), task("a", "A?")],
                              "Q?")
    assert [(t.id, t.question, t.depends_on) for t in tasks] == [
        ("t1", "A?", []), ("t2", "B?", ["t1"]), ("t3", "C?", ["t1", "t2"])]
    assert notes == []


def test_unknown_self_and_cyclic_dependencies_are_repaired() -> None:
    tasks, notes = clean_plan([task("a", "A?", "b", "zz"), task("b", "B?", "a", "b")], "Q?")
    assert len(tasks) == 2 and any("cycle" in n for n in notes)
    assert any("unknown" in n for n in notes)
    first, second = tasks
    assert first.depends_on == [] and second.depends_on == ["t1"]


def test_empty_plan_and_lonely_calculator() -> None:
    tasks, _ = clean_plan([], "What is OLID?")
    assert [(t.id, t.question, t.tool) for t in tasks] == [("t1", "What is OLID?",
                                                            "library_search")]
    tasks, notes = clean_plan([task("a", "Compare?", tool="calculator")], "Q?")
    assert tasks[0].tool == "library_search" and "calculator" in notes[0]


def test_next_task_waits_for_dependencies() -> None:
    plan = [task("t1", "A?"), task("t2", "B?", "t1"), task("t3", "C?")]
    outcomes = {t.id: TaskOutcome(task_id=t.id) for t in plan}
    assert next_task(plan, outcomes).id == "t1"  # type: ignore[union-attr]
    outcomes["t1"] = TaskOutcome(task_id="t1", state="empty")
    assert next_task(plan, outcomes).id == "t2"  # type: ignore[union-attr]
    outcomes["t2"] = TaskOutcome(task_id="t2", state="done")
    outcomes["t3"] = TaskOutcome(task_id="t3", state="skipped")
    assert next_task(plan, outcomes) is None
