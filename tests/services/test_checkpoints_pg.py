"""LangGraph's Postgres checkpointer under run_graph: resume skips completed nodes, our models
round-trip through the restricted serializer, and two processes set the tables up once."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph

from papermind.domain import Anchor, Evidence
from papermind.services import checkpoints
from papermind.services.checkpoints import postgres_checkpointer
from papermind.services.runner import run_graph


class State(TypedDict, total=False):
    quote: str
    evidence: list[Evidence]
    calls: Annotated[list[str], operator.add]


def _graph(counter: dict[str, int]) -> StateGraph:
    async def locate(state: State) -> State:
        counter["locate"] = counter.get("locate", 0) + 1
        anchor = Anchor(page=1, line_start=2, line_end=3)
        return {"evidence": [Evidence(quote=state["quote"], anchor=anchor)], "calls": ["locate"]}

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


async def test_a_new_saver_resumes_without_rerunning_completed_nodes(pg_url: str) -> None:
    counter: dict[str, int] = {}
    async with postgres_checkpointer(pg_url) as saver:
        first = await run_graph(_graph(counter), {"quote": "q"}, thread_id="job-1",
                                checkpointer=saver, interrupt_before=["report"])
    assert first.status == "interrupted" and first.nodes_run == ["locate"]
    async with postgres_checkpointer(pg_url) as saver:  # as another worker would
        second = await run_graph(_graph(counter), {"quote": "ignored"}, thread_id="job-1",
                                 checkpointer=saver)
        again = await run_graph(_graph(counter), {}, thread_id="job-1", checkpointer=saver)
    assert second.status == "completed" and second.nodes_run == ["report"]
    assert counter == {"locate": 1, "report": 1}
    assert second.state["evidence"][0].anchor.line_start == 2, "Evidence came back as a model"
    assert again.nodes_run == [] and again.state["calls"] == ["locate", "report"]


async def test_concurrent_first_use_sets_the_tables_up_once(pg_url: str) -> None:
    checkpoints._ready.discard(pg_url)

    async def run(n: int) -> str:
        async with postgres_checkpointer(pg_url) as saver:
            result = await run_graph(_graph({}), {"quote": f"q{n}"}, thread_id=f"t{n}",
                                     checkpointer=saver)
        return result.status

    assert await asyncio.gather(*[run(n) for n in range(3)]) == ["completed"] * 3
