"""A node whose step was reported finished is never run again after a crash.

The crash is simulated where SIGKILL struck in the field: right after a node finished, the
process stops and nothing it had not yet written reaches the checkpointer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from papermind.services.runner import run_graph


class State(TypedDict, total=False):
    drafted: int
    reviewed: int


class DyingSaver(InMemorySaver):
    """Drops every write once ``dead`` is set: the process is gone."""

    dead = False

    async def aput(self, config: Any, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0)
        return config if self.dead else await super().aput(config, *args, **kwargs)

    async def aput_writes(self, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0)
        if not self.dead:
            await super().aput_writes(*args, **kwargs)


class Killed(Exception):
    pass


def _graph(runs: list[str]) -> StateGraph[Any, Any, Any, Any]:
    async def editor(state: State) -> dict[str, int]:
        runs.append("editor")
        return {"drafted": 1}

    async def reviewer(state: State) -> dict[str, int]:
        runs.append("reviewer")
        return {"reviewed": 1}

    graph: StateGraph[Any, Any, Any, Any] = StateGraph(State)
    graph.add_node("editor", editor)
    graph.add_node("reviewer", reviewer)
    graph.add_edge(START, "editor")
    graph.add_edge("editor", "reviewer")
    graph.add_edge("reviewer", END)
    return graph


async def test_a_node_reported_finished_is_not_rerun_after_a_kill() -> None:
    runs: list[str] = []
    saver = DyingSaver()

    def kill_after_editor(node: str, _: Mapping[str, Any]) -> None:
        if node == "editor":
            saver.dead = True
            raise Killed

    with contextlib.suppress(Killed):
        await run_graph(_graph(runs), {}, thread_id="job", checkpointer=saver,
                        on_node=kill_after_editor)
    saver.dead = False
    resumed = await run_graph(_graph(runs), {}, thread_id="job", checkpointer=saver)
    assert runs == ["editor", "reviewer"], "the editor ran again after the kill"
    assert resumed.nodes_run == ["reviewer"] and resumed.state == {"drafted": 1, "reviewed": 1}
