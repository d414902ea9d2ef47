"""Multi-agent pre-submission review panel (a LangGraph graph)."""

from papermind.workflows.review.context import ReviewContext
from papermind.workflows.review.graph import build_graph
from papermind.workflows.review.panel import ACTORS, FULL_PANEL, REVIEWERS, display_name
from papermind.workflows.review.state import ReviewInput, ReviewState

__all__ = ["ACTORS", "FULL_PANEL", "REVIEWERS", "ReviewContext", "ReviewInput", "ReviewState",
           "build_graph", "display_name"]
