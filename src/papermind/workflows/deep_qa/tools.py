"""The QA tools, one table: adding a tool is one row (its name, the line the planner reads,
its runner, when it is available) and its runner.

The planner prompt lists the available rows; a planned tool not in the table becomes a
library search; ``retrieve`` runs the row's runner for each retrieval round; a row without
a runner computes from earlier tasks' evidence instead (the ``calculate`` node).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import EvidenceItem, Strategy
from papermind.domain.evidence import Evidence
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import current_outcome, step, with_outcome
from papermind.workflows.deep_qa.state import QAState

Runner = Callable[[QAState, Runtime[QAContext], Strategy], Awaitable[dict[str, Any]]]
"""One retrieval round of a task: the state update of the ``retrieve`` node."""


async def search_library(state: QAState, runtime: Runtime[QAContext],
                         strategy: Strategy) -> dict[str, Any]:
    """Search the papers with the strategy; keep only passages not seen before (novelty)."""
    ctx = runtime.context
    hits = ctx.retriever.search(strategy.query, paper_ids=strategy.paper_ids or None,
                                mode=strategy.mode, k=ctx.search_k,
                                year_min=strategy.year_min, year_max=strategy.year_max)
    seen_by_task = state.get("seen_chunks", {})
    seen = list(seen_by_task.get(strategy.task_id, []))
    new = [h for h in hits if h.chunk_id not in seen]
    outcome = current_outcome(state)
    outcome = outcome.model_copy(update={"retrievals": outcome.retrievals + 1})
    summary = (f"{strategy.mode} '{strategy.query[:80]}': {len(hits)} hit(s), "
               f"{len(new)} new")
    return {"hits": new, "new_hits": len(new),
            "seen_chunks": {**seen_by_task, strategy.task_id: seen + [h.chunk_id for h in new]},
            "steps": state.get("steps", 0) + 1, "outcomes": with_outcome(state, outcome),
            "history": [step("retrieve", summary, strategy.task_id)]}


async def search_web(state: QAState, runtime: Runtime[QAContext],
                     strategy: Strategy) -> dict[str, Any]:
    """The web (scholarly) search's results as external evidence, never grounded."""
    web = runtime.context.web_search
    assert web is not None
    results = await web.search(strategy.query, runtime.context.keep)
    evidence = list(state.get("evidence", []))
    outcome = current_outcome(state)
    ids = []
    for result in results:
        item_id = f"E{len(evidence) + 1}"
        ids.append(item_id)
        evidence.append(EvidenceItem(
            id=item_id, task_id=strategy.task_id, kind="web", title=result.title,
            year=result.year, section=result.url,
            evidence=Evidence(quote=result.snippet,
                              reasons=["external source: not grounded in a stored paper"])))
    outcome = outcome.model_copy(update={"retrievals": outcome.retrievals + 1,
                                         "evidence_ids": outcome.evidence_ids + ids})
    return {"hits": [], "new_hits": len(ids), "evidence": evidence, "new_evidence": len(ids),
            "steps": state.get("steps", 0) + 1, "outcomes": with_outcome(state, outcome),
            "history": [step("retrieve", f"{web.name}: {len(results)} result(s)",
                             strategy.task_id)]}


def _always(_: QAContext) -> bool:
    return True


@dataclass(frozen=True)
class QATool:
    """One tool the planner may give a task."""

    name: str
    """What the planner writes (and reports show) as the task's tool."""
    description: str
    """The planner prompt's line about it."""
    run: Runner | None
    """A retrieval round; None: it computes from earlier tasks (the ``calculate`` node)."""
    available: Callable[[QAContext], bool] = _always
    unavailable: str = ""
    """Why it is not available (a task planned with it searches the library instead)."""
    scoped: bool = False
    """Searches only the papers the planner named (``paper_ids``)."""

    @property
    def computes(self) -> bool:
        return self.run is None


DEFAULT_TOOL = "library_search"
TOOLS: dict[str, QATool] = {t.name: t for t in (
    QATool("library_search", "search all papers", search_library),
    QATool("paper_search", "search one paper; set paper_ids", search_library, scoped=True),
    QATool("calculator", "compare numbers found by earlier tasks; set depends_on, optional "
                         "expression", None),
    QATool("web_search", "outside sources: a scholarly search beyond the library",
           search_web, available=lambda ctx: ctx.web_search is not None,
           unavailable="web search is disabled (offline: no web search tool configured)"),
)}


def tool_named(name: str) -> QATool:
    """The row of ``name``; the default (library search) for a name not in the table."""
    return TOOLS.get(name) or TOOLS[DEFAULT_TOOL]


def offered(ctx: QAContext) -> str:
    """The planner prompt's list: one line per available tool."""
    return "\n".join(f"- {t.name}: {t.description}" for t in TOOLS.values() if t.available(ctx))
