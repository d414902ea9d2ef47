"""QA tools are one table: a tool registered there is offered to the planner and run by
the retrieve node; an unavailable one is not offered and falls back to library search."""

from __future__ import annotations

from typing import Any

import pytest

from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import run_graph
from papermind.workflows.deep_qa import tools
from papermind.workflows.deep_qa.context import WebResult
from papermind.workflows.deep_qa.graph import build_graph
from papermind.workflows.deep_qa.schemas import TaskOut
from papermind.workflows.deep_qa.tools import TOOLS, QATool, search_library
from tests.workflows.deep_qa.fakes import OFFENSIVE, Library, context, judge, make_paper, or_judge

SUFFICIENT = {"sufficient": True, "missing": "", "next_query": ""}
QUESTION = "How many tweets does OLID contain?"


def _gateway(tool: str) -> Any:
    return fake_gateway({
        "planner": [{"tasks": [{"id": "t1", "question": QUESTION, "tool": tool}]},
                    {"related_terms": []}],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
        "checker": [SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID contains 14,100 tweets.", "cites": ["E1"]}]}]})


async def _run(gateway: Any, **ctx: Any) -> Any:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    qa = context(gateway, library)
    for name, value in ctx.items():
        setattr(qa, name, value)
    return await run_graph(build_graph(), {"question": QUESTION}, thread_id="t",
                           checkpointer=memory_checkpointer(), context=qa)


async def test_a_registered_tool_is_offered_to_the_planner_and_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rounds: list[str] = []

    async def glossary_search(state: Any, runtime: Any, strategy: Any) -> dict[str, Any]:
        rounds.append(strategy.query)
        return await search_library(state, runtime, strategy)

    monkeypatch.setitem(TOOLS, "glossary_search", QATool(
        "glossary_search", "look a term up in the glossary", glossary_search))
    gateway = _gateway("glossary_search")
    result = await _run(gateway)
    plan_prompt = gateway.calls_for(node="plan")[0].text
    assert "- glossary_search: look a term up in the glossary" in plan_prompt
    assert rounds and result.state["plan"][0].tool == "glossary_search"
    assert result.state["strategies"][0].tool == "glossary_search"
    assert result.state["status"] == "answered" and result.state["sentences"][0].verified


async def test_every_available_tool_is_listed_and_an_unavailable_one_is_not() -> None:
    offline = _gateway("library_search")
    await _run(offline)
    listed = offline.calls_for(node="plan")[0].text
    assert all(f"- {name}:" in listed for name in ("library_search", "paper_search",
                                                   "calculator"))
    assert "web_search" not in listed

    class Web:
        name = "scholarly search"

        async def search(self, query: str, k: int) -> list[WebResult]:
            return [WebResult("OLID", "https://doi.org/10.1/olid", OFFENSIVE[1], 2019)]

    online = _gateway("library_search")
    await _run(online, web_search=Web())
    assert f"- web_search: {TOOLS['web_search'].description}" in \
        online.calls_for(node="plan")[0].text


def test_a_tool_not_in_the_table_becomes_a_library_search() -> None:
    assert TaskOut(question="q?", tool="telepathy").to_task(1).tool == tools.DEFAULT_TOOL
    assert TaskOut(question="q?", tool="paper_search").to_task(1).tool == "paper_search"
    assert tools.tool_named("telepathy") is TOOLS[tools.DEFAULT_TOOL]
