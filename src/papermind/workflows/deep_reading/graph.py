"""Topology of the deep reading (and only the topology).

context_loader -> deep_reader -> hallucination_checker -> (deep_reader | questioner) -> END
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from papermind.workflows.deep_reading.context import ReadingContext
from papermind.workflows.deep_reading.nodes import (
    ask_questions,
    check_hallucinations,
    load_context,
    read_deeply,
    route_after_check,
)
from papermind.workflows.deep_reading.state import ReadingInput, ReadingState

NODES = ("context_loader", "deep_reader", "hallucination_checker", "questioner")


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled graph; the caller compiles it with its checkpointer (thread = job id)."""
    graph: StateGraph[Any, Any, Any, Any] = StateGraph(
        ReadingState, context_schema=ReadingContext, input_schema=ReadingInput)
    graph.add_node("context_loader", load_context)
    graph.add_node("deep_reader", read_deeply)
    graph.add_node("hallucination_checker", check_hallucinations)
    graph.add_node("questioner", ask_questions)
    graph.add_edge(START, "context_loader")
    graph.add_edge("context_loader", "deep_reader")
    graph.add_edge("deep_reader", "hallucination_checker")
    graph.add_conditional_edges("hallucination_checker", route_after_check,
                                ["deep_reader", "questioner"])
    graph.add_edge("questioner", END)
    return graph
