"""Run a workflow graph to completion (or to an interrupt) under a checkpointer.

One mechanism for the CLI, the API's background jobs and tests: thread id = job id; a
thread that already has a checkpoint resumes from it instead of starting again, so
completed nodes are never re-executed.

Steps are checkpointed with durability "sync": a step's checkpoint is written before the
next step starts (and before its progress is reported). LangGraph's default, "async",
writes it in the background, so a process killed just after a node finished could lose
that checkpoint and run the node again on resume.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import StateGraph

RunStatus = Literal["completed", "interrupted"]
NodeListener = Callable[[str, Mapping[str, Any]], None]


@dataclass
class RunResult:
    """Final state of a run, how it ended, and the nodes executed in this call."""

    status: RunStatus
    state: dict[str, Any]
    nodes_run: list[str] = field(default_factory=list)
    interrupt: Any = None


async def run_graph(
    graph: StateGraph[Any, Any, Any, Any],
    inputs: Mapping[str, Any],
    *,
    thread_id: str,
    checkpointer: BaseCheckpointSaver[Any],
    context: Any = None,
    on_node: NodeListener | None = None,
    interrupt_before: list[str] | None = None,
    resume: Any = None,
) -> RunResult:
    """Compile ``graph`` with ``checkpointer`` and run thread ``thread_id``.

    A fresh thread starts from ``inputs``; a thread with pending nodes resumes from its
    last checkpoint (``inputs`` ignored); a finished thread returns its final state.
    ``resume`` answers an interrupt (``Command(resume=...)``).
    """
    from langgraph.types import Command

    app = graph.compile(checkpointer=checkpointer, interrupt_before=interrupt_before)
    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    snapshot = await app.aget_state(config)
    # ``next`` omits tasks whose writes were saved before the process died (their step's
    # checkpoint was not): such a thread is not finished, ``tasks`` still lists them.
    pending = bool(snapshot.next) or bool(snapshot.tasks)
    started = bool(snapshot.values) or pending
    if started and not pending and resume is None:
        return RunResult(status="completed", state=dict(snapshot.values))
    payload: Any = dict(inputs) if not started else None
    if resume is not None:
        payload = Command(resume=resume)
    nodes_run: list[str] = []
    async for update in app.astream(payload, config, context=context, stream_mode="updates",
                                    durability="sync"):
        for node, delta in update.items():
            if node.startswith("__"):
                continue
            nodes_run.append(node)
            if on_node is not None:
                on_node(node, delta if isinstance(delta, Mapping) else {})
    final = await app.aget_state(config)
    if final.next:
        interrupts = [i.value for task in final.tasks for i in task.interrupts]
        return RunResult(status="interrupted", state=dict(final.values), nodes_run=nodes_run,
                         interrupt=interrupts[0] if interrupts else None)
    return RunResult(status="completed", state=dict(final.values), nodes_run=nodes_run)
