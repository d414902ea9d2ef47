"""Single-pass cited QA topology.

prepare_search -> retrieve -> rerank -> distill -> close_task -> answer -> verify_citations -> END
(retrieve, rerank, distill, answer and verify_citations are the deep QA nodes.)
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from papermind.workflows.cited_qa.nodes import close_task, prepare_search
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.answering import answer, verify_citations
from papermind.workflows.deep_qa.nodes.gathering import distill, rerank, retrieve
from papermind.workflows.deep_qa.state import QAInput, QAOutput, QAState

ORDER = (prepare_search, retrieve, rerank, distill, close_task, answer, verify_citations)


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled single-pass QA graph; compile it with the checkpointer you want."""
    graph = StateGraph(QAState, context_schema=QAContext, input_schema=QAInput,
                       output_schema=QAOutput)
    previous = START
    for node in ORDER:
        graph.add_node(node.__name__, node)
        graph.add_edge(previous, node.__name__)
        previous = node.__name__
    graph.add_edge(previous, END)
    return graph
