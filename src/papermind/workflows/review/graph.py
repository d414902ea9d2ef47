"""Topology of the review panel (the only place that knows it); the reviewer nodes come
from the panel table (panel.py)."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from papermind.workflows.review import nodes
from papermind.workflows.review.context import ReviewContext
from papermind.workflows.review.panel import DEVIL, EDITOR, META, REVIEWERS
from papermind.workflows.review.state import ReviewInput, ReviewState


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """editor -> reviewers (parallel) -> devil -> grounding -> support judge -> meta
    (-> devil again) -> signoff."""
    graph: StateGraph[Any, Any, Any, Any] = StateGraph(
        ReviewState, context_schema=ReviewContext, input_schema=ReviewInput)
    graph.add_node(EDITOR.role, nodes.plan_review)
    for spec in REVIEWERS:
        graph.add_node(spec.role, nodes.reviewer_node(spec))
    graph.add_node(DEVIL.role, nodes.challenge_claims)
    graph.add_node("grounding_checker", nodes.check_grounding)
    graph.add_node("support_judge", nodes.judge_comments)
    graph.add_node(META.role, nodes.arbitrate)
    graph.add_node("human_signoff", nodes.request_signoff)

    graph.add_edge(START, EDITOR.role)
    graph.add_conditional_edges(EDITOR.role, nodes.route_reviewers, [s.role for s in REVIEWERS])
    for spec in REVIEWERS:
        graph.add_conditional_edges(spec.role, nodes.route_after_reviews,
                                    [DEVIL.role, "grounding_checker"])
    graph.add_edge(DEVIL.role, "grounding_checker")
    graph.add_edge("grounding_checker", "support_judge")
    graph.add_edge("support_judge", META.role)
    graph.add_conditional_edges(META.role, nodes.route_after_meta, [DEVIL.role, "human_signoff"])
    graph.add_edge("human_signoff", END)
    return graph
