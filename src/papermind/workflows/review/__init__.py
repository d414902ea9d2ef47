"""Multi-agent pre-submission review panel (a LangGraph graph)."""

from papermind.workflows.review.context import ReviewContext
from papermind.workflows.review.graph import build_graph
from papermind.workflows.review.state import FULL_PANEL, ReviewInput, ReviewState

__all__ = ["FULL_PANEL", "ReviewContext", "ReviewInput", "ReviewState", "build_graph"]
