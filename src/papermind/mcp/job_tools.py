"""Tools over jobs: a cited answer (``ask``), deep reading and review (``start_job``), their
status and reports. A job runs in this server's process; a call waits for it at most
``wait_s`` seconds (assistants time out long calls), sending a progress notification per
finished workflow step, and then answers with the job's status so far."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from papermind.errors import ConflictError, NotFoundError
from papermind.mcp import views
from papermind.mcp.errors import tool_errors
from papermind.mcp.results import AnswerOut, Citation, JobOut, ReportOut, Sentence, cut
from papermind.mcp.runtime import Runtime

POLL_S = 0.2
FORMATS = ("md", "json", "html")
Wait = Annotated[float, Field(ge=0, le=55, description="seconds to wait for the job to finish, "
                              "with progress notifications meanwhile (0: return at once)")]
JobId = Annotated[str, Field(min_length=1, max_length=64, description="id from start_job or ask")]


Question = Annotated[str, Field(min_length=1, max_length=2000,
                                description="the question, in any language")]
Ids = Annotated[list[str] | None, Field(default=None, max_length=100,
                                        description="only these papers (ids or prefixes)")]
Deep = Annotated[bool, Field(description="plan sub-questions, search adaptively, check "
                             "contradictions before answering (slower)")]
Kind = Annotated[Literal["reading", "review"], Field(
    description="'reading': deep reading (method, math, experiments, each point checked); "
                "'review': a reviewer panel")]
PaperId = Annotated[str, Field(min_length=4, max_length=200,
                               description="library id of a paper, or a unique prefix of it")]
Panel = Annotated[Literal["minimal", "full"], Field(description="review panel size")]
Format = Annotated[Literal["md", "json", "html"], Field(description="md (default), json or html")]
STARTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=True)
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


class JobTools:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    @tool_errors
    async def ask(self, question: Question, ctx: Context, paper_ids: Ids = None,
                  deep: Deep = False, wait_s: Wait = 50.0) -> Annotated[CallToolResult, AnswerOut]:
        """PaperMind's cited answer from the library: every sentence cites passages (page
        and lines) that code found in the papers, or the answer says the evidence is
        insufficient. Needs a language model (llm settings)."""
        from papermind.domain.job import JobRequest
        from papermind.services.model_setup import require_model

        rt = self.rt
        require_model(rt.settings.llm)
        ids = [await rt.call(rt.container.papers.resolve, p) for p in paper_ids or []]
        job, _ = rt.jobs().submit(JobRequest(kind="question", question=question, deep=deep,
                                             paper_ids=ids))
        status = await follow(rt, ctx, job.id, wait_s)
        out = AnswerOut(job_id=job.id, status=status.status, sentences=[], error=status.error)
        if status.status == "completed":
            out = answer(rt, job.id, await rt.call(report_data, rt, job.id))
        return views.reply(out, answer_text(out))

    @tool_errors
    async def start_job(self, kind: Kind, paper_id: PaperId, ctx: Context,
                        reviewers: Panel = "full",
                        wait_s: Wait = 0.0) -> Annotated[CallToolResult, JobOut]:
        """Start a deep reading or a review of a paper as a background job; follow it with
        job_status and fetch the result with get_report. Needs a language model."""
        from papermind.domain.job import JobRequest
        from papermind.services.model_setup import require_model

        rt = self.rt
        require_model(rt.settings.llm)
        full_id = await rt.call(rt.container.papers.resolve, paper_id)
        job, _ = rt.jobs().submit(JobRequest(kind=kind, paper_id=full_id, reviewers=reviewers))
        out = await follow(rt, ctx, job.id, wait_s)
        return views.reply(out, job_text(out))

    @tool_errors
    async def job_status(self, job_id: JobId, ctx: Context,
                         wait_s: Wait = 0.0) -> Annotated[CallToolResult, JobOut]:
        """A job's status and finished steps; with wait_s, wait for it (progress meanwhile)."""
        out = await follow(self.rt, ctx, job_id, wait_s)
        return views.reply(out, job_text(out))

    @tool_errors
    async def get_report(self, job_id: JobId,
                         format: Format = "md") -> Annotated[CallToolResult, ReportOut]:
        """A finished job's report (cut to the result budget; `truncated` says so)."""
        limit = self.rt.limit
        text = await self.rt.call(report_text, self.rt, job_id, format)
        out = ReportOut(job_id=job_id, format=format, text=cut(text, limit),
                        truncated=len(text) > limit)
        return views.reply(out, out.text)

    TOOLS = {ask: STARTS, start_job: STARTS, job_status: READS, get_report: READS}
    """Each tool (a method) and its MCP annotations."""


async def follow(rt: Runtime, ctx: Context, job_id: str, wait_s: float) -> JobOut:
    """The job's state after waiting up to ``wait_s`` for it to finish, with one progress
    notification per finished step (steps done so far are notified first)."""
    store = rt.jobs().store
    job = await rt.call(store.get, job_id)
    deadline = anyio.current_time() + wait_s
    done: list[str] = []
    seq = 0
    while True:
        for event in await rt.call(store.events, job_id, seq):
            seq = event.seq
            if event.kind != "node" or not event.node:
                continue
            summary = str(event.data.get("summary", ""))
            what = event.data.get("event")
            if what == "started":
                continue
            if what == "progress":  # a running step says how far it is
                await ctx.report_progress(len(done), None, cut(f"{event.node}: {summary}", 300))
                continue
            done.append(event.node)
            await ctx.report_progress(len(done), None, cut(
                f"{event.node} done" + (f": {summary}" if summary else ""), 300))
        job = await rt.call(store.get, job_id)
        if job.finished or anyio.current_time() >= deadline:
            break
        await anyio.sleep(POLL_S)
    formats = [] if job.status != "completed" else await rt.call(
        lambda: [f for f in FORMATS if rt.container.report_file(job.id, f"report.{f}").is_file()])
    from papermind.services.report_view import recommendation  # the review stack, when asked

    said = await rt.call(recommendation, rt.container, job)
    return JobOut(job_id=job.id, kind=job.request.kind, status=job.status,
                  paper_id=job.request.paper_id, error=job.error, steps_done=done,
                  formats=formats, recommendation=said)


def report_text(rt: Runtime, job_id: str, format: str) -> str:
    job = rt.jobs().store.get(job_id)
    if job.status != "completed":
        raise ConflictError(f"job {job_id} is {job.status}; its report is not ready")
    path = rt.container.report_file(job.id, f"report.{format}")
    if not path.is_file():
        raise NotFoundError(f"job {job_id} has no {format} report")
    return path.read_text(encoding="utf-8")


def report_data(rt: Runtime, job_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(report_text(rt, job_id, "json"))
    return data


def answer(rt: Runtime, job_id: str, data: dict[str, Any]) -> AnswerOut:
    """A question report's sentences with their citations as passages, within the budget."""
    sentences = data.get("sentences", [])
    per_text = max(200, rt.limit // max(1, 2 * sum(len(s.get("citations", []))
                                                  for s in sentences)))
    return AnswerOut(job_id=job_id, status=str(data.get("status", "")), sentences=[
        Sentence(text=cut(str(s.get("text", "")), 2000),
                 citations=[_citation(rt, c, per_text) for c in s.get("citations", [])])
        for s in sentences])


def _citation(rt: Runtime, data: dict[str, Any], limit: int) -> Citation:
    anchor = data.get("anchor")
    passage = None
    if anchor:
        from papermind.domain import Anchor

        spot = Anchor(paper_id=anchor["paper_id"], page=anchor["page"],
                      line_start=anchor["line_start"], line_end=anchor["line_end"],
                      page_end=anchor.get("page_end"))
        passage = views.passage(rt, spot, str(data.get("text", "")), limit)
    return Citation(evidence_id=str(data.get("evidence_id", "")),
                    verified=bool(data.get("verified")), status=str(data.get("status", "")),
                    passage=passage)


def answer_text(out: AnswerOut) -> str:
    if out.status in ("queued", "running"):
        return (f"job {out.job_id}: {out.status}; follow it with job_status, then read the "
                "answer with get_report")
    if not out.sentences:
        return f"job {out.job_id}: {out.status}" + (f" ({out.error})" if out.error else "")

    def cites(sentence: Sentence) -> str:
        return " ".join(f"[{c.evidence_id}: {views.where(c.passage)}]" if c.passage
                        else f"[{c.evidence_id}: not found]" for c in sentence.citations)

    return "\n".join(f"{s.text} {cites(s)}" for s in out.sentences)


def job_text(out: JobOut) -> str:
    steps = f"; done: {', '.join(out.steps_done)}" if out.steps_done else ""
    return (f"job {out.job_id} ({out.kind}): {out.status}{steps}"
            + (f"; error: {out.error}" if out.error else "")
            + (f"; recommendation: {out.recommendation}" if out.recommendation else ""))
