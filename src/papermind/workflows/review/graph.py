"""Topology of the review panel (the only place that knows it)."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from papermind.workflows.review import nodes
from papermind.workflows.review.context import ReviewContext
from papermind.workflows.review.state import ReviewInput, ReviewState

REVIEWER_NODES = {
    "contribution_reviewer": nodes.review_contribution,
    "methodology_reviewer": nodes.review_methodology,
    "experiment_reviewer": nodes.review_experiments,
}


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """editor -> reviewers (parallel) -> devil -> grounding -> support judge -> meta
    (-> devil again) -> signoff."""
    graph: StateGraph[Any, Any, Any, Any] = StateGraph(
        ReviewState, context_schema=ReviewContext, input_schema=ReviewInput)
    graph.add_node("editor", nodes.plan_review)
    for name, node in REVIEWER_NODES.items():
        graph.add_node(name, node)
    graph.add_node("devil_advocate", nodes.challenge_claims)
    graph.add_node("grounding_checker", nodes.check_grounding)
    graph.add_node("support_judge", nodes.judge_comments)
    graph.add_node("meta_reviewer", nodes.arbitrate)
    graph.add_node("human_signoff", nodes.request_signoff)

    graph.add_edge(START, "editor")
    graph.add_conditional_edges("editor", nodes.route_reviewers, list(REVIEWER_NODES))
    for name in REVIEWER_NODES:
        graph.add_conditional_edges(name, nodes.route_after_reviews,
                                    ["devil_advocate", "grounding_checker"])
    graph.add_edge("devil_advocate", "grounding_checker")
    graph.add_edge("grounding_checker", "support_judge")
    graph.add_edge("support_judge", "meta_reviewer")
    graph.add_conditional_edges("meta_reviewer", nodes.route_after_meta,
                                ["devil_advocate", "human_signoff"])
    graph.add_edge("human_signoff", END)
    return graph
