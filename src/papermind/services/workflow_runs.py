"""The one shape of the three workflow use cases (read, review, ask).

Each use case resolves its inputs, binds the gateway to the job, and calls ``run_workflow``:
the graph runs under the container's checkpointer (thread id = job id, so a job id that
already has a checkpoint resumes), every finished node is reported to one
``ProgressCallback`` as ``progress(node, {"event": "finished", "summary", "seconds"})``,
and ``usage_summary`` gives the job's token usage in one shape. The report files are
written by ``report_files.write_reports`` to ``report_folder``.

Invalid model output: the gateway re-asks with the validation error; when a model still
gives no valid output, the workflow records a warning in its report (the step falls back
to nothing, or to a deterministic answer) and the run continues. The job never fails on
it, and never invents content to fill the gap (see docs/guide/models.md, "Invalid model output").
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from papermind.services.runner import NodeListener, RunResult, run_graph
from papermind.workflows.ports import ProgressCallback

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.graph import StateGraph

    from papermind.config import Settings
    from papermind.llm import Gateway
    from papermind.services.library import LibraryService
    from papermind.workflows.ports import Grounder

__all__ = ["ProgressCallback", "RunParts", "gateway_for", "node_listener", "report_folder",
           "run_workflow", "usage_summary"]


class RunParts(Protocol):
    """What every workflow run needs: the model gateway, the durable checkpointer and the
    job's report folder. The container provides them; a use case asks for these and the
    few parts of its own (``ReadingParts``, ``ReviewParts``, ``QAHost``), never for the
    container."""

    @property
    def gateway(self) -> Gateway: ...

    def checkpointer(self) -> AbstractAsyncContextManager[BaseCheckpointSaver[Any]]: ...

    def report_dir(self, job_id: str) -> Path: ...


class PaperRunParts(RunParts, Protocol):
    """What a run over one stored paper needs besides: the settings, the library and the
    grounding engine (``ReadingParts`` is this; ``ReviewParts`` adds the scholarly cache)."""

    settings: Settings

    @property
    def library(self) -> LibraryService: ...

    @property
    def grounder(self) -> Grounder: ...


def gateway_for(parts: RunParts) -> Gateway:
    """The gateway the use cases run on (the one seam tests replace)."""
    return parts.gateway


def report_folder(parts: RunParts, job_id: str, out_dir: Path | None = None) -> Path:
    """``out_dir`` if given, else the job's report folder."""
    return out_dir if out_dir is not None else parts.report_dir(job_id)


def _summary(entry: Any) -> str:
    """A history entry's summary (review entries are dicts, the others models)."""
    if isinstance(entry, Mapping):
        return str(entry.get("summary", ""))
    return str(getattr(entry, "summary", ""))


def node_listener(progress: ProgressCallback | None) -> NodeListener:
    """The one progress listener: each finished node's last history summary and duration."""
    started = {"at": time.perf_counter()}

    def on_node(node: str, delta: Mapping[str, Any]) -> None:
        if progress is None:
            return
        history = delta.get("history") or []
        progress(node, {"event": "finished", "summary": _summary(history[-1]) if history else "",
                        "seconds": round(time.perf_counter() - started["at"], 1)})
        started["at"] = time.perf_counter()
    return on_node


async def run_workflow(parts: RunParts, graph: StateGraph[Any, Any, Any, Any],
                       inputs: Mapping[str, Any], *, job_id: str, context: Any,
                       progress: ProgressCallback | None = None,
                       resume: Any = None) -> RunResult:
    """Run (or resume) job ``job_id`` of ``graph`` under the durable checkpointer."""
    async with parts.checkpointer() as saver:
        return await run_graph(graph, inputs, thread_id=job_id, checkpointer=saver,
                               context=context, on_node=node_listener(progress), resume=resume)


def usage_summary(gateway: Gateway) -> dict[str, Any]:
    """tokens_in, tokens_out, cost_usd, calls and by_node for the gateway's job."""
    total = gateway.usage.total()
    return {"tokens_in": total.tokens_in, "tokens_out": total.tokens_out,
            "cost_usd": round(total.cost_usd, 6), "calls": total.calls,
            "by_node": {node: u.to_dict() for node, u in gateway.usage.by_node().items()}}
