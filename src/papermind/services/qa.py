"""Question answering use cases: single-pass cited QA and deep-thinking QA over the library.

Both run a workflow graph under a durable SQLite checkpointer (thread id = job id), with
the gateway bound to the job and its token budget, and return a QAReport. The REST API calls
``answer_question`` with its own job id and progress callback.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from papermind.config import WorkflowSettings
from papermind.domain import Paper
from papermind.domain.answer import QAKind, QAReport, Turn
from papermind.errors import ConfigError, InputError
from papermind.llm import Gateway
from papermind.services.checkpoints import sqlite_checkpointer
from papermind.services.report_files import write_report_files
from papermind.services.runner import run_graph
from papermind.workflows.cited_qa.graph import build_graph as build_cited_graph
from papermind.workflows.deep_qa.context import CatalogEntry, QAContext, Reranker, WebSearch
from papermind.workflows.deep_qa.graph import build_graph as build_deep_graph
from papermind.workflows.deep_qa.report import assemble_report
from papermind.workflows.ports import Grounder, PaperSource, Retriever

if TYPE_CHECKING:
    from papermind.services.container import Container

StepListener = Callable[[str, str], None]
"""Called as ``on_step(node, summary)`` after each node of the run."""
ROLES = {"deep_qa": ("planner", "distiller", "checker", "answerer"),
         "cited_qa": ("distiller", "answerer", "checker")}
MAX_QUESTION_CHARS = 2000


class CachedPapers:
    """A PaperSource that parses each stored paper once per run."""

    def __init__(self, source: PaperSource) -> None:
        self._source = source
        self._papers: dict[str, Paper] = {}

    def get(self, paper_id: str) -> Paper:
        if paper_id not in self._papers:
            self._papers[paper_id] = self._source.get(paper_id)
        return self._papers[paper_id]


@dataclass
class QAParts:
    """What the QA use cases need, built by ``qa_parts`` from the container (or by tests)."""

    gateway: Gateway
    retriever: Retriever
    papers: PaperSource
    grounder: Grounder
    workflows: WorkflowSettings = field(default_factory=WorkflowSettings)
    token_budget: int | None = None
    resolve_id: Callable[[str], str] = lambda paper_id: paper_id
    newest_year: int | None = None
    reranker: Reranker | None = None
    web_search: WebSearch | None = None
    catalog: list[CatalogEntry] = field(default_factory=list)


def gateway_for(container: Container) -> Gateway:
    """The gateway questions run on (a seam tests replace)."""
    return container.gateway


def qa_parts(container: Container) -> QAParts:
    """QAParts over the library, its hybrid search and the grounding engine.

    No reranker is passed: the search index applies the configured one itself.
    """
    settings = container.settings
    records = container.papers.list()
    years = [r.year for r in records if r.year]
    return QAParts(gateway=gateway_for(container),
                   retriever=container.search, papers=container.papers,
                   grounder=container.grounder, workflows=settings.workflows,
                   token_budget=settings.llm.job_token_budget,
                   resolve_id=container.papers.resolve, newest_year=max(years, default=None),
                   catalog=[CatalogEntry(r.id, r.title, r.year, r.source_name) for r in records])


async def answer_question(parts: QAParts, question: str, *, deep: bool = False,
                          paper_ids: Sequence[str] = (), earlier: Sequence[Turn] = (),
                          job_id: str | None = None,
                          on_step: StepListener | None = None,
                          checkpointer: BaseCheckpointSaver[Any] | None = None,
                          db_path: Path | None = None) -> QAReport:
    """Answer ``question`` (deep: plan and loop; else single pass) and return the report.

    Uses ``checkpointer`` if given, else the SQLite file at ``db_path`` (the CLI passes
    ``settings.checkpoint_path``); a job id that already has a checkpoint resumes where it
    stopped, without re-running finished nodes. ``earlier`` are the turns this question
    follows up (oldest first): context for the search and the prompts.
    """
    question = " ".join(question.split())
    if not question:
        raise InputError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise InputError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
    scope = list(dict.fromkeys(parts.resolve_id(p) for p in paper_ids))
    job_id = job_id or uuid.uuid4().hex
    gateway = parts.gateway.bind(job_id=job_id, token_budget=parts.token_budget)
    kind: QAKind = "deep_qa" if deep else "cited_qa"
    context = _context(parts, gateway)
    graph = build_deep_graph() if deep else build_cited_graph()
    inputs = {"question": question, "paper_ids": scope, "earlier": list(earlier)}

    on_node = _listener(on_step)
    if checkpointer is not None:
        result = await run_graph(graph, inputs, thread_id=job_id, checkpointer=checkpointer,
                                 context=context, on_node=on_node)
    elif db_path is not None:
        async with sqlite_checkpointer(db_path) as saver:
            result = await run_graph(graph, inputs, thread_id=job_id, checkpointer=saver,
                                     context=context, on_node=on_node)
    else:
        raise ConfigError("answer_question needs a checkpointer or a db_path")
    title = context.papers.get(scope[0]).title if len(scope) == 1 else ""
    return assemble_report(result.state, kind=kind, question=question, paper_ids=scope,
                           title=title, demo_quality=gateway.is_demo_quality,
                           models={r: gateway.model_for(r) for r in ROLES[kind]},
                           usage=usage_of(gateway))


def _listener(on_step: StepListener | None) -> Callable[[str, Any], None]:
    def on_node(node: str, delta: Any) -> None:
        history = delta.get("history") or []
        if on_step is not None:
            on_step(node, history[-1].summary if history else "")
    return on_node


def _context(parts: QAParts, gateway: Gateway) -> QAContext:
    w = parts.workflows
    return QAContext(gateway=gateway, retriever=parts.retriever, papers=CachedPapers(parts.papers),
                     grounder=parts.grounder, reranker=parts.reranker,
                     web_search=parts.web_search, max_steps=w.qa_max_steps,
                     max_retrievals_per_task=w.qa_max_retrievals_per_task,
                     max_replans=w.qa_max_replans, search_k=w.qa_search_k, keep=w.qa_keep,
                     token_budget=gateway.token_budget, newest_year=parts.newest_year,
                     catalog=parts.catalog)


def usage_of(gateway: Gateway) -> dict[str, object]:
    """tokens_in, tokens_out, cost_usd and by_node for the gateway's job."""
    total = gateway.usage.total()
    return {"tokens_in": total.tokens_in, "tokens_out": total.tokens_out,
            "cost_usd": round(total.cost_usd, 6), "calls": total.calls,
            "by_node": {node: u.to_dict() for node, u in gateway.usage.by_node().items()}}


def write_reports(report: QAReport, folder: Path) -> list[Path]:
    """report.json, report.md and report.html in ``folder`` (created if needed)."""
    from papermind.workflows.deep_qa.render import to_html, to_json, to_markdown

    return write_report_files(folder, json_text=to_json(report), markdown=to_markdown(report),
                              html=to_html(report))
