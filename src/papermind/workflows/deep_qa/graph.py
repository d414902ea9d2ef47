"""Deep QA topology.

plan -> pick_task -> (choose_strategy -> retrieve -> rerank -> distill -> assess_sufficiency
-> (reformulate -> retrieve | integrate) | calculate -> integrate) -> (replan ->) pick_task ...
-> detect_contradictions -> answer -> verify_citations -> END
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.answering import (
    answer,
    detect_contradictions,
    verify_citations,
)
from papermind.workflows.deep_qa.nodes.gathering import (
    assess_sufficiency,
    calculate,
    distill,
    rerank,
    retrieve,
)
from papermind.workflows.deep_qa.nodes.planning import (
    choose_strategy,
    integrate,
    pick_task,
    plan,
    reformulate,
    replan,
)
from papermind.workflows.deep_qa.state import QAInput, QAOutput, QAState
from papermind.workflows.deep_qa.tools import tool_named


def route_task(state: QAState) -> Literal["choose_strategy", "calculate", "detect_contradictions"]:
    """Next task's tool decides the branch (a computing tool's row has no runner); no task
    left -> wrap up."""
    current = state.get("current")
    if current is None:
        return "detect_contradictions"
    task = next(t for t in state.get("plan", []) if t.id == current)
    return "calculate" if tool_named(task.tool).computes else "choose_strategy"


def route_assessment(state: QAState) -> Literal["reformulate", "integrate"]:
    """Search again unless assessment set a stop reason (sufficient, novelty, bounds)."""
    return "integrate" if state.get("loop_stop") else "reformulate"


def route_after_integrate(state: QAState) -> Literal["replan", "pick_task"]:
    """Replan when integrate found the task empty and replanning is still allowed."""
    return "replan" if state.get("replan_next") else "pick_task"


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled deep QA graph; compile it with the checkpointer you want."""
    graph = StateGraph(QAState, context_schema=QAContext, input_schema=QAInput,
                       output_schema=QAOutput)
    for node in (plan, pick_task, choose_strategy, retrieve, rerank, distill, assess_sufficiency,
                 reformulate, integrate, replan, calculate, detect_contradictions, answer,
                 verify_citations):
        graph.add_node(node.__name__, node)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "pick_task")
    graph.add_conditional_edges("pick_task", route_task)
    graph.add_edge("choose_strategy", "retrieve")
    graph.add_edge("retrieve", "rerank")
    graph.add_edge("rerank", "distill")
    graph.add_edge("distill", "assess_sufficiency")
    graph.add_conditional_edges("assess_sufficiency", route_assessment)
    graph.add_edge("reformulate", "retrieve")
    graph.add_edge("calculate", "integrate")
    graph.add_conditional_edges("integrate", route_after_integrate)
    graph.add_edge("replan", "pick_task")
    graph.add_edge("detect_contradictions", "answer")
    graph.add_edge("answer", "verify_citations")
    graph.add_edge("verify_citations", END)
    return graph
