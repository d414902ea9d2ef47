"""Question answering use cases: single-pass cited QA and deep-thinking QA over the library.

``ask_question`` is the use case (the shape of services/workflow_runs.py): the graph runs
under the durable checkpointer (thread id = job id), with the gateway bound to the job
and its token budget, and the report files are written. ``answer_question`` is its core
over explicit parts and an open checkpointer (tests and the regression runner use it).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from langgraph.checkpoint.base import BaseCheckpointSaver

from papermind.config import Settings, WorkflowSettings
from papermind.domain import Paper, SearchHit
from papermind.domain.answer import QAKind, QAReport, Turn
from papermind.domain.job import MAX_QUESTION_CHARS, Job
from papermind.errors import InputError
from papermind.library.papers import PaperRepository
from papermind.llm import Gateway
from papermind.services.job_store import JobRecords
from papermind.services.language import output_language
from papermind.services.report_files import write_reports
from papermind.services.rerank import LLMReranker
from papermind.services.runner import run_graph
from papermind.services.threads import earlier_turns
from papermind.services.workflow_runs import (
    ProgressCallback,
    RunParts,
    gateway_for,
    node_listener,
    report_folder,
    usage_summary,
)
from papermind.workflows.cited_qa.graph import build_graph as build_cited_graph
from papermind.workflows.deep_qa.context import (
    CatalogEntry,
    QAContext,
    Reranked,
    Reranker,
    WebSearch,
)
from papermind.workflows.deep_qa.graph import build_graph as build_deep_graph
from papermind.workflows.deep_qa.report import assemble_report
from papermind.workflows.ports import Grounder, PaperSource, Retriever

if TYPE_CHECKING:
    from papermind.scholar.cache import ScholarCache
    from papermind.services.search import SearchService

ROLES = {"deep_qa": ("planner", "distiller", "checker", "answerer"),
         "cited_qa": ("distiller", "answerer", "checker")}


class CachedPapers:
    """A PaperSource that parses each stored paper once per run."""

    def __init__(self, source: PaperSource) -> None:
        self._source = source
        self._papers: dict[str, Paper] = {}

    def get(self, paper_id: str) -> Paper:
        if paper_id not in self._papers:
            self._papers[paper_id] = self._source.get(paper_id)
        return self._papers[paper_id]


class QAReranker:
    """The QA workflows' reranker port over an LLM reranker: awaited on the graph's loop, on
    the job's gateway (so its tokens are the job's), saying when the search order was kept."""

    def __init__(self, reranker: LLMReranker) -> None:
        self.reranker = reranker

    async def rerank(self, query: str, hits: Sequence[SearchHit], k: int) -> Reranked:
        result = await self.reranker.areranking(query, hits, k)
        if not result.model:
            return Reranked(result.hits, "search score (no reranker model)")
        if result.warning:
            return Reranked(result.hits, f"search score: {result.warning}")
        return Reranked(result.hits, f"reranker {result.model}")


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
    language: str = "auto"
    """The 'language' setting: answers in it, or in the question's language for 'auto'."""


@dataclass
class QARun:
    """A finished question: the report, its job id and the files written."""

    report: QAReport
    job_id: str
    files: list[Path] = field(default_factory=list)


class QAHost(RunParts, Protocol):
    """What ``qa_parts`` builds QAParts from, and a question job reads its thread from
    (the container provides it)."""

    settings: Settings

    @property
    def papers(self) -> PaperRepository: ...

    @property
    def search(self) -> SearchService: ...

    @property
    def grounder(self) -> Grounder: ...

    @property
    def scholar_cache(self) -> ScholarCache: ...

    @property
    def job_store(self) -> JobRecords: ...

    def report_file(self, job_id: str, name: str) -> Path: ...


def qa_parts(host: QAHost, gateway: Gateway | None = None, *,
             online: bool = False) -> QAParts:
    """QAParts over the library, its hybrid search and the grounding engine; the scholarly
    search as web strategy when online (``scholar.enabled`` or ``online``).

    With an LLM reranker configured, the workflow's rerank node applies it (on the job's
    gateway, so its tokens count in the report) over a search that keeps the fusion order.
    """
    settings = host.settings
    web_search = None
    if settings.scholar.enabled or online:
        from papermind.services.scholar_search import ScholarWebSearch

        web_search = ScholarWebSearch(settings.scholar, host.scholar_cache)
    records = host.papers.list()
    years = [r.year for r in records if r.year]
    search = host.search
    return QAParts(gateway=gateway or gateway_for(host),
                   retriever=search.without_rerank() if search.reranker else search,
                   reranker=search.reranker, papers=host.papers,
                   grounder=host.grounder, workflows=settings.workflows,
                   token_budget=settings.llm.job_token_budget,
                   resolve_id=host.papers.resolve, newest_year=max(years, default=None),
                   catalog=[CatalogEntry(r.id, r.title, r.year, r.source_name) for r in records],
                   language=settings.language, web_search=web_search)


async def ask_question(host: QAHost, question: str, *, deep: bool = False,
                       paper_ids: Sequence[str] = (), earlier: Sequence[Turn] = (),
                       job_id: str | None = None, out_dir: Path | None = None,
                       progress: ProgressCallback | None = None,
                       gateway: Gateway | None = None, language: str | None = None,
                       online: bool = False) -> QARun:
    """The whole use case: answer (or resume job ``job_id``), write report.json/.md/.html
    to ``out_dir`` (default ``<home>/reports/<job id>/``); answer in ``language`` (default
    the 'language' setting; 'auto' = the question's language). ``earlier``: the turns this
    question follows up (services.threads). ``online``: offer the scholarly search."""
    job = job_id or uuid.uuid4().hex
    async with host.checkpointer() as saver:
        report = await answer_question(qa_parts(host, gateway, online=online), question,
                                       deep=deep,
                                       paper_ids=paper_ids, earlier=earlier, job_id=job,
                                       progress=progress, checkpointer=saver,
                                       language=language)
    return QARun(report, job, write_reports(report, report_folder(host, job, out_dir)))


async def run_job(host: QAHost, job: Job, progress: ProgressCallback,
                  gateway: Gateway | None) -> dict[str, Any]:
    """A question job (the workflow table's use-case contract), in its thread; its usage."""
    request = job.request
    run = await ask_question(host, request.question or "", deep=request.deep,
                             paper_ids=request.paper_ids, job_id=job.id,
                             earlier=earlier_turns(host, host.job_store, job),
                             progress=progress, gateway=gateway, language=request.language)
    return dict(run.report.usage)


async def answer_question(parts: QAParts, question: str, *,
                          checkpointer: BaseCheckpointSaver[Any], deep: bool = False,
                          paper_ids: Sequence[str] = (), earlier: Sequence[Turn] = (),
                          job_id: str | None = None,
                          progress: ProgressCallback | None = None,
                          language: str | None = None) -> QAReport:
    """Answer ``question`` (deep: plan and loop; else single pass) and return the report.

    A job id that already has a checkpoint in ``checkpointer`` resumes where it stopped,
    without re-running finished nodes. ``earlier`` are the turns this question follows up
    (oldest first): context for the search and the prompts.
    """
    question = " ".join(question.split())
    if not question:
        raise InputError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise InputError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
    scope = list(dict.fromkeys(parts.resolve_id(p) for p in paper_ids))
    job_id = job_id or uuid.uuid4().hex
    lang = output_language(language, parts.language, question)
    gateway = parts.gateway.bind(job_id=job_id, token_budget=parts.token_budget, language=lang)
    kind: QAKind = "deep_qa" if deep else "cited_qa"
    context = _context(parts, gateway)
    graph = build_deep_graph() if deep else build_cited_graph()
    inputs = {"question": question, "paper_ids": scope, "earlier": list(earlier)}
    result = await run_graph(graph, inputs,
                             thread_id=job_id, checkpointer=checkpointer, context=context,
                             on_node=node_listener(progress))
    title = context.papers.get(scope[0]).title if len(scope) == 1 else ""
    return assemble_report(result.state, kind=kind, question=question, paper_ids=scope,
                           title=title, demo_quality=gateway.is_demo_quality,
                           models={r: gateway.model_for(r) for r in _roles(parts, kind)},
                           usage=usage_summary(gateway)).model_copy(update={"language": lang})


def _roles(parts: QAParts, kind: QAKind) -> tuple[str, ...]:
    """The roles a run's report names the models of (the reranker's when it has one)."""
    return ROLES[kind] + (("reranker",) if isinstance(parts.reranker, LLMReranker) else ())


def _context(parts: QAParts, gateway: Gateway) -> QAContext:
    """The run's context; an LLM reranker is bound to the job's gateway and sees its
    ``top`` candidates per retrieval."""
    w = parts.workflows
    reranker, search_k = parts.reranker, w.qa_search_k
    if isinstance(parts.reranker, LLMReranker):
        search_k = max(search_k, parts.reranker.top)
        reranker = QAReranker(parts.reranker.bound_to(gateway))
    return QAContext(gateway=gateway, retriever=parts.retriever, papers=CachedPapers(parts.papers),
                     grounder=parts.grounder, reranker=reranker,
                     web_search=parts.web_search, max_steps=w.qa_max_steps,
                     max_retrievals_per_task=w.qa_max_retrievals_per_task,
                     max_replans=w.qa_max_replans, search_k=search_k, keep=w.qa_keep,
                     token_budget=gateway.token_budget, newest_year=parts.newest_year,
                     catalog=parts.catalog)
