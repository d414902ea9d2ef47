"""run_graph: start, interrupt, resume without re-running completed nodes."""

from __future__ import annotations

import contextlib
import operator
from pathlib import Path
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph

from papermind.config import Settings
from papermind.domain import Anchor, Evidence
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.container import Container
from papermind.services.runner import run_graph


class State(TypedDict, total=False):
    quote: str
    evidence: list[Evidence]
    calls: Annotated[list[str], operator.add]


def _graph(counter: dict[str, int]) -> StateGraph:
    async def locate(state: State) -> State:
        counter["locate"] = counter.get("locate", 0) + 1
        anchor = Anchor(page=1, line_start=2, line_end=3)
        return {"evidence": [Evidence(quote=state["quote"], anchor=anchor)],
                "calls": ["locate"]}

    async def report(state: State) -> State:
        counter["report"] = counter.get("report", 0) + 1
        return {"calls": ["report"]}

    graph = StateGraph(State)
    graph.add_node("locate", locate)
    graph.add_node("report", report)
    graph.add_edge(START, "locate")
    graph.add_edge("locate", "report")
    graph.add_edge("report", END)
    return graph


async def test_runs_to_completion_and_reports_nodes() -> None:
    counter: dict[str, int] = {}
    seen: list[str] = []
    result = await run_graph(_graph(counter), {"quote": "q"}, thread_id="t",
                             checkpointer=memory_checkpointer(),
                             on_node=lambda node, _: seen.append(node))
    assert result.status == "completed"
    assert seen == ["locate", "report"] == result.nodes_run
    assert result.state["calls"] == ["locate", "report"]


async def test_resume_after_interrupt_skips_completed_nodes(tmp_path: Path) -> None:
    counter: dict[str, int] = {}
    box = Container(Settings(home=tmp_path))
    async with box.checkpointer() as saver:
        first = await run_graph(_graph(counter), {"quote": "q"}, thread_id="job-1",
                                checkpointer=saver, interrupt_before=["report"])
    assert first.status == "interrupted" and first.nodes_run == ["locate"]
    async with box.checkpointer() as saver:  # a new process would reopen the file
        second = await run_graph(_graph(counter), {"quote": "ignored"}, thread_id="job-1",
                                 checkpointer=saver)
        again = await run_graph(_graph(counter), {"quote": "ignored"}, thread_id="job-1",
                                checkpointer=saver)
    assert second.status == "completed" and second.nodes_run == ["report"]
    assert counter == {"locate": 1, "report": 1}
    assert isinstance(second.state["evidence"][0], Evidence)
    assert again.nodes_run == [] and again.state["calls"] == ["locate", "report"]


class _LosesStepCheckpoint(type(memory_checkpointer())):  # type: ignore[misc]
    """Dies while saving step ``die_at``'s checkpoint, after the task's writes were saved
    (what a SIGKILL between the two leaves in the SQLite file)."""

    die_at: int | None = 1

    async def aput(self, config, checkpoint, metadata, new_versions):  # type: ignore[no-untyped-def]
        if self.die_at is not None and metadata.get("step") == self.die_at:
            raise RuntimeError("killed")
        return await super().aput(config, checkpoint, metadata, new_versions)


async def test_resume_when_only_the_last_tasks_writes_survived() -> None:
    counter: dict[str, int] = {}
    saver = _LosesStepCheckpoint()
    with contextlib.suppress(RuntimeError):  # the simulated kill
        await run_graph(_graph(counter), {"quote": "q"}, thread_id="t", checkpointer=saver)
    saver.die_at = None
    again = await run_graph(_graph(counter), {"quote": "q"}, thread_id="t", checkpointer=saver)
    assert again.status == "completed" and again.state["calls"] == ["locate", "report"]
    assert counter["locate"] == 1, "locate's saved writes were reused, not re-run"
