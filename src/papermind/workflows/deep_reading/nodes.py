"""Nodes of the deep-reading graph: each does one thing, with at most one model call."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime

from papermind.domain.reading import (
    CheckRound,
    DroppedQuestion,
    HistoryEntry,
    Question,
    ReadingPoint,
    Revision,
)
from papermind.llm import PromptTemplate, fence_untrusted
from papermind.workflows.deep_reading import checking
from papermind.workflows.deep_reading.condense import build_context
from papermind.workflows.deep_reading.context import ReadingContext
from papermind.workflows.deep_reading.points import (
    describe_points,
    diff_points,
    point_id,
    point_text,
    points_from_draft,
)
from papermind.workflows.deep_reading.schemas import (
    QuestionerOutput,
    ReaderOutput,
    questioner_schema,
)
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
    """Load the structured paper and build the reader's text within its token budget."""
    ctx, started = runtime.context, _now()
    ctx.announce("context_loader")
    paper = ctx.papers.get(state["paper_id"])
    text, info = build_context(paper, ctx.context_budget, ctx.grounder.numbered_text,
                               ctx.count_tokens)
    summary = (f"condensed {info.paper_tokens} -> {info.context_tokens} tokens (budget "
               f"{info.budget_tokens}), section by section" if info.condensed
               else f"full paper, {info.paper_tokens} tokens")
    return {"title": paper.title, "context_text": text, "context_info": info,
            "max_rewrites": ctx.max_rewrites, "rewrites": 0, "checked": False,
            "warnings": [f"paper text condensed: {n}" for n in info.notes],
            "history": _history("context_loader", started, summary)}


async def read_deeply(state: ReadingState, runtime: Runtime[ReadingContext]) -> Update:
    """First analysis, or a rewrite given the previous analysis and the checker's feedback."""
    ctx, started = runtime.context, _now()
    rewrite = bool(state.get("checked"))
    ctx.announce("deep_reader", mode="rewrite" if rewrite else "first analysis")
    paper = fence_untrusted(state["context_text"], "PAPER")
    if rewrite:
        previous = describe_points(state.get("points", []), status=True)
        messages = REWRITER.render(paper=paper, previous=fence_untrusted(previous, "ANALYSIS"),
                                   feedback=fence_untrusted(state.get("feedback", ""), "FEEDBACK"),
                                   max_points=ctx.max_points)
    else:
        messages = READER.render(paper=paper, max_points=ctx.max_points)
    outcome = "kept the previous points" if rewrite else "no points"
    draft, warnings = await structured_or_none(ctx.gateway, "reader", messages, ReaderOutput,
                                               node="deep_reader", outcome=outcome)
    if draft is not None:
        points, notes = points_from_draft(draft, max_points=ctx.max_points,
                                          max_quotes=ctx.max_quotes)
        warnings += notes
    else:
        points = [_reset(p) for p in state.get("points", [])] if rewrite else []
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
    """Materialise every citation (code checks), let the checker judge support, rate
    credibility from support and tell the reader what is not verified."""
    ctx, started = runtime.context, _now()
    ctx.announce("hallucination_checker")
    paper = ctx.papers.get(state["paper_id"])
    points = checking.cite_points(state.get("points", []), paper, ctx.grounder)
    judged = await judge_support(ctx.gateway, checking.support_items(points),
                                 node="hallucination_checker", batch_size=16)
    points = checking.with_verdicts(points, judged.items)
    level, reason = checking.credibility(points)
    level, reason = checking.with_checker_rating(level, reason, judged.credibility)
    cited = [e for p in points for e in p.evidence]
    round_ = CheckRound(round=state.get("rewrites", 0), credibility=level, points=len(points),
                        found_points=sum(p.found for p in points),
                        verified_points=sum(p.verified for p in points), quotes=len(cited),
                        found_quotes=sum(e.found for e in cited),
                        verified_quotes=sum(e.verified for e in cited),
                        notes=[reason, *judged.notes])
    summary = (f"{round_.verified_points}/{round_.points} points verified (found and "
               f"supported), {round_.found_quotes}/{round_.quotes} citations found; "
               f"credibility {level}")
    return {"points": points, "checked": True, "credibility": level,
            "feedback": checking.compose_feedback(points, level, reason), "rounds": [round_],
            "warnings": [f"checker: {n}" for n in judged.notes],
            "history": _history("hallucination_checker", started, summary)}


def route_after_check(state: ReadingState) -> Literal["deep_reader", "questioner"]:
    """Rewrite while credibility is low and rewrites remain; otherwise ask questions."""
    if state.get("credibility") == "low" and state.get("rewrites", 0) < state.get("max_rewrites", 0):
        return "deep_reader"
    return "questioner"


async def ask_questions(state: ReadingState, runtime: Runtime[ReadingContext]) -> Update:
    """Deep follow-up questions built on verified (found AND supported) points only."""
    ctx, started = runtime.context, _now()
    ctx.announce("questioner")
    verified = [p for p in state.get("points", []) if p.verified]
    if not verified:
        return {"questions": [], "dropped_questions": [],
                "warnings": ["questioner: no verified points, so no questions were asked"],
                "history": _history("questioner", started, "no verified points: skipped")}
    listing = "\n".join(f"{p.id} ({p.kind}): {point_text(p)}" for p in verified)
    messages = QUESTIONER.render(title=fence_untrusted(state.get("title", ""), "TITLE"), max_questions=ctx.max_questions,
                                 points=fence_untrusted(listing, "POINTS"))
    output, warnings = await structured_or_none(
        ctx.gateway, "questioner", messages, questioner_schema([p.id for p in verified]),
        node="questioner", outcome="no questions")
    if output is None:
        return {"questions": [], "dropped_questions": [], "warnings": warnings,
                "history": _history("questioner", started, "no valid questions")}
    kept, dropped = _screen_questions(output, {p.id for p in verified},
                                      {p.id for p in state.get("points", [])}, ctx.max_questions)
    return {"questions": kept, "dropped_questions": dropped,
            "history": _history("questioner", started,
                                f"{len(kept)} questions kept, {len(dropped)} dropped")}


def _screen_questions(output: QuestionerOutput, verified: set[str], known: set[str],
                      limit: int) -> tuple[list[Question], list[DroppedQuestion]]:
    kept: list[Question] = []
    dropped: list[DroppedQuestion] = []
    for q in output.questions:
        text = q.question.strip()
        ids = list(dict.fromkeys(point_id(i) for i in q.builds_on if i.strip()))
        if not text:
            continue
        reason = ""
        if not ids:
            reason = "does not say which points it builds on"
        elif bad := [i for i in ids if i in known and i not in verified]:
            reason = f"builds on unverified point(s) {', '.join(bad)}"
        elif unknown := [i for i in ids if i not in known]:
            reason = f"cites unknown point id(s) {', '.join(unknown)}"
        elif len(kept) >= limit:
            reason = f"more than {limit} questions"
        if reason:
            dropped.append(DroppedQuestion(text=text, builds_on=ids, reason=reason))
        else:
            kept.append(Question(text=text, builds_on=ids, why=q.why.strip()))
    return kept, dropped
