"""Nodes of the deep-reading graph: each does one thing, with at most one model call."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime

from papermind.domain.reading import (
    CheckRound,
    ContextInfo,
    ContextSection,
    HistoryEntry,
    ReadingPoint,
    Revision,
)
from papermind.llm import PromptTemplate, fence_untrusted
from papermind.workflows.deep_reading import checking, extractive, questions
from papermind.workflows.deep_reading.condense import build_context
from papermind.workflows.deep_reading.context import ReadingContext
from papermind.workflows.deep_reading.passages import select
from papermind.workflows.deep_reading.points import (
    describe_points,
    diff_points,
    merge_drafts,
    points_from_draft,
)
from papermind.workflows.deep_reading.schemas import ReaderOutput, questioner_schema
from papermind.workflows.deep_reading.state import ReadingState
from papermind.workflows.model_output import structured_or_none
from papermind.workflows.support_judge import judge_support

_PROMPTS = Path(__file__).parent / "prompts"
READER = PromptTemplate.load(_PROMPTS / "deep_reader.md", {"paper", "max_points"})
REWRITER = PromptTemplate.load(_PROMPTS / "deep_reader_rewrite.md",
                               {"paper", "previous", "feedback", "max_points"})
QUESTIONER = PromptTemplate.load(_PROMPTS / "questioner.md",
                                 {"title", "points", "max_questions"})

Update = dict[str, Any]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _history(node: str, started: str, summary: str) -> list[HistoryEntry]:
    return [HistoryEntry(node=node, started=started, finished=_now(), summary=summary)]


async def load_context(state: ReadingState, runtime: Runtime[ReadingContext]) -> Update:
    """Load the structured paper and decide what the reader works from: passages code
    selects from the whole paper (extractive reading), or the numbered text in parts that
    fit the reader's window."""
    ctx, started = runtime.context, _now()
    ctx.announce("context_loader")
    paper = ctx.papers.get(state["paper_id"])
    selection = select(paper, per_part=ctx.max_points, questions=ctx.max_questions)
    found = [checking.sentence_evidence(ctx.grounder, paper, q.text, q.lines)
             for q in selection.questions]
    common: Update = {"title": paper.title, "max_rewrites": ctx.max_rewrites, "rewrites": 0,
                      "reask_explanations": ctx.reask_explanations,
                      "checked": False, "extractive": ctx.extractive,
                      "question_sources": [e for e in found if e.found]}
    if ctx.extractive:
        taken: dict[str, int] = {}
        for passage in selection.passages:
            taken[passage.section] = taken.get(passage.section, 0) + 1
        sections = [ContextSection(title=title, sentences_full=n, passages=taken.get(title, 0))
                    for title, n in selection.sections.items()]
        info = ContextInfo(method="passages", sections=sections, notes=[
            f"{len(selection.passages)} passages selected by code from all "
            f"{sum(selection.sections.values())} sentences of {len(sections)} sections; the "
            "model explains each passage"])
        return {**common, "context_chunks": [], "context_info": info,
                "passages": extractive.points_from_passages(selection.passages),
                "history": _history("context_loader", started, info.notes[0])}
    chunks, info = build_context(paper, ctx.context_budget, ctx.grounder.numbered_text,
                                 ctx.count_tokens)
    summary = (f"{info.paper_tokens} tokens read in {len(chunks)} parts of at most "
               f"{info.budget_tokens}, section by section" if len(chunks) > 1
               else f"full paper, {info.paper_tokens} tokens")
    return {**common, "context_chunks": chunks, "context_info": info,
            "history": _history("context_loader", started, summary)}


async def read_deeply(state: ReadingState, runtime: Runtime[ReadingContext]) -> Update:
    """First analysis, or a rewrite given the checker's feedback (only failed items)."""
    ctx, started = runtime.context, _now()
    rewrite = bool(state.get("checked"))
    ctx.announce("deep_reader", mode="rewrite" if rewrite else "first analysis")
    if state.get("extractive"):
        points, warnings = await _explain(state, ctx, rewrite)
    else:
        points, warnings = await _analyse(state, ctx, rewrite)
    update: Update = {"points": points, "checked": False, "warnings": warnings}
    cited = sum(len(p.evidence) for p in points)
    if not rewrite:
        update["history"] = _history("deep_reader", started,
                                     f"first analysis: {len(points)} points, {cited} citations")
        return update
    revision = _revision(state, points)
    update.update(rewrites=revision.round, revisions=[revision],
                  history=_history("deep_reader", started,
                                   f"{revision.summary()}; {len(points)} points, {cited} "
                                   "citations"))
    return update


async def _explain(state: ReadingState, ctx: ReadingContext,
                   rewrite: bool) -> tuple[list[ReadingPoint], list[str]]:
    """Extractive: points from code's passages, each explained; a rewrite re-asks only the
    explanations the checker dropped."""
    def done(k: int, n: int) -> None:
        ctx.report("deep_reader", f"explained {k} of {n} passages")
    if rewrite:
        points = state.get("points", [])
        return await extractive.explain_all(ctx.gateway, points,
                                            extractive.failed_explanations(points), done=done)
    return await extractive.explain_all(ctx.gateway, state.get("passages", []),
                                        None if ctx.explain else set(), done=done)


async def _analyse(state: ReadingState, ctx: ReadingContext,
                   rewrite: bool) -> tuple[list[ReadingPoint], list[str]]:
    """The reader model's own analysis: one call per part of the paper, merged."""
    chunks = state.get("context_chunks", [])
    previous = describe_points(state.get("points", []), status=True)

    def messages(chunk: str) -> list[Any]:
        paper = fence_untrusted(chunk, "PAPER")
        if rewrite:
            return REWRITER.render(paper=paper, previous=fence_untrusted(previous, "ANALYSIS"),
                                   feedback=fence_untrusted(state.get("feedback", ""),
                                                            "FEEDBACK"),
                                   max_points=ctx.max_points)
        return READER.render(paper=paper, max_points=ctx.max_points)
    outcome = "kept the previous points" if rewrite else "no points"
    answers = await asyncio.gather(*(structured_or_none(
        ctx.gateway, "reader", messages(chunk), ReaderOutput, node="deep_reader",
        outcome=outcome) for chunk in chunks))
    warnings = [w for _, ws in answers for w in ws]
    drafts = [d for d, _ in answers if d is not None]
    if not drafts:
        points = [_reset(p) for p in state.get("points", [])] if rewrite else []
        return points, warnings
    points, notes = points_from_draft(merge_drafts(drafts), max_points=ctx.max_points,
                                      max_quotes=ctx.max_quotes)
    return points, warnings + notes


def _revision(state: ReadingState, points: list[ReadingPoint]) -> Revision:
    """What a rewrite changed relative to the checked analysis before it."""
    before = state.get("points", [])
    changes, kept = diff_points(before, points)
    return Revision(round=state.get("rewrites", 0) + 1, feedback=state.get("feedback", ""),
                    credibility_before=state.get("credibility", "low"),
                    unverified_quotes_before=sum(not e.verified for p in before
                                                 for e in p.evidence),
                    changes=changes, kept=kept)


def _reset(point: ReadingPoint) -> ReadingPoint:
    return point.model_copy(update={"verdict": "unchecked", "verdict_note": "",
                                    "verdict_by": "", "verified": False})


async def check_hallucinations(state: ReadingState, runtime: Runtime[ReadingContext]) -> Update:
    """Materialise every citation (code checks), let the checker judge support (code alone
    when the checker is the bundled model), check explanations, rate credibility and tell
    the reader what is not verified."""
    ctx, started = runtime.context, _now()
    ctx.announce("hallucination_checker")
    paper = ctx.papers.get(state["paper_id"])
    points = checking.cite_points(state.get("points", []), paper, ctx.grounder)
    points = checking.with_table_checks(points, paper)
    judged = await judge_support(ctx.gateway, checking.support_items(points),
                                 node="hallucination_checker", batch_size=16)
    points = checking.with_verdicts(points, judged.items)
    points = [extractive.checked_explanation(p) for p in points]
    level, reason = checking.credibility(points)
    level, reason = checking.with_checker_rating(level, reason, judged.credibility)
    cited = [e for p in points for e in p.evidence]
    explained = sum(bool(p.explanation) for p in points if p.source == "extracted")
    notes = [reason, *judged.notes]
    if state.get("extractive") and not ctx.explain:
        notes.append(f"explanations withheld for all {len(points)} passages: this bundled "
                     "model's plain-words glosses were measured wrong too often; passages "
                     "are shown quoted (the local-large extra or a configured model explains)")
    elif state.get("extractive"):
        notes.append(f"{explained} of {len(points)} passages explained; the rest shown quoted")
        dropped = len(extractive.failed_explanations(points))
        if dropped and not state.get("reask_explanations"):
            notes.append(f"{dropped} explanation(s) not asked again: a re-ask rarely pays "
                         "(workflows.reading_reask_explanations)")
    round_ = CheckRound(round=state.get("rewrites", 0), credibility=level, points=len(points),
                        found_points=sum(p.found for p in points),
                        verified_points=sum(p.verified for p in points), quotes=len(cited),
                        found_quotes=sum(e.found for e in cited),
                        verified_quotes=sum(e.verified for e in cited), notes=notes)
    summary = (f"{round_.verified_points}/{round_.points} points verified (found and "
               f"supported), {round_.found_quotes}/{round_.quotes} citations found; "
               f"credibility {level}")
    return {"points": points, "checked": True, "credibility": level,
            "feedback": checking.compose_feedback(points, level, reason), "rounds": [round_],
            "warnings": [f"checker: {n}" for n in judged.notes],
            "history": _history("hallucination_checker", started, summary)}


def route_after_check(state: ReadingState) -> Literal["deep_reader", "questioner"]:
    """A rewrite round runs only for what it can change, while rewrites remain: the reader's
    own analysis when credibility is low and some point is not verified; an extractive
    reading only to re-ask dropped explanations, and only when asked to
    (``reask_explanations``: its points are code's passages, a rewrite changes no verdict).
    Otherwise on to the questions."""
    if state.get("rewrites", 0) >= state.get("max_rewrites", 0):
        return "questioner"
    points = state.get("points", [])
    if state.get("extractive"):
        wanted = state.get("reask_explanations") and extractive.failed_explanations(points)
        return "deep_reader" if wanted else "questioner"
    if points and all(p.verified for p in points):
        return "questioner"  # nothing a rewrite could make better
    return "deep_reader" if state.get("credibility") == "low" else "questioner"


async def ask_questions(state: ReadingState, runtime: Runtime[ReadingContext]) -> Update:
    """Deep follow-up questions built on verified points and on the sentences code finds
    about assumptions, limitations and future work; each cites the lines it builds on."""
    ctx, started = runtime.context, _now()
    ctx.announce("questioner")
    points = state.get("points", [])
    items = questions.sources(points, state.get("question_sources", []))
    if not items:
        return {"questions": [], "dropped_questions": [],
                "warnings": ["questioner: nothing verified to build on, so no questions"],
                "history": _history("questioner", started, "nothing to build on: skipped")}
    if state.get("extractive"):
        drafts, warnings = await questions.ask_each(ctx.gateway, items, ctx.max_questions)
    else:
        messages = QUESTIONER.render(title=fence_untrusted(state.get("title", ""), "TITLE"),
                                     max_questions=ctx.max_questions,
                                     points=fence_untrusted(questions.listing(items), "POINTS"))
        output, warnings = await structured_or_none(
            ctx.gateway, "questioner", messages, questioner_schema([i.id for i in items]),
            node="questioner", outcome="no questions")
        drafts = questions.drafts_of(output) if output is not None else []
    kept, dropped = questions.screen(drafts, items, {p.id for p in points}, ctx.max_questions)
    return {"questions": kept, "dropped_questions": dropped, "warnings": warnings,
            "history": _history("questioner", started,
                                f"{len(kept)} questions kept, {len(dropped)} dropped")}
