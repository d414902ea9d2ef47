"""Deep reading: the whole paper, checked point by point, then deep questions."""

from papermind.workflows.deep_reading.context import ReadingContext
from papermind.workflows.deep_reading.graph import NODES, build_graph

__all__ = ["NODES", "ReadingContext", "build_graph"]
