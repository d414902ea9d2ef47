"""Nodes of the review panel: each does one thing, at most one LLM call, partial updates."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from papermind.domain import LineRef, Paper
from papermind.domain.check import CheckFinding
from papermind.domain.review import ReviewMessage, RevisionItem, Target
from papermind.errors import StructuredOutputError
from papermind.llm import fence_untrusted
from papermind.workflows.model_output import invalid_output_warning, structured_or_none
from papermind.workflows.ports import Grounder
from papermind.workflows.review import arbitration as arb
from papermind.workflows.review.briefs import claims_brief, disagreements_brief, panel_brief
from papermind.workflows.review.check_facts import facts, for_lines, high
from papermind.workflows.review.checking import (
    MAX_CLAIM_LINES,
    anchor_lines,
    check_new_messages,
    judge_checks,
)
from papermind.workflows.review.context import ReviewContext
from papermind.workflows.review.drafts import (
    CommentDraft,
    DevilDraft,
    EditorDraft,
    MetaDraft,
    ReviewerComment,
    ReviewerDraft,
)
from papermind.workflows.review.line_refs import qualify
from papermind.workflows.review.messages import ask, deliver, message_id
from papermind.workflows.review.panel import (
    DEVIL,
    EDITOR,
    META,
    REVIEWER_BY_ROLE,
    REVIEWERS,
    ReviewerSpec,
    active_reviewers,
)
from papermind.workflows.review.prompts import PROMPTS
from papermind.workflows.review.related import related_block
from papermind.workflows.review.state import ReviewState
from papermind.workflows.review.targets import resolve_target
from papermind.workflows.review.views import View, editor_view

Update = dict[str, Any]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _stamp(node: str, started: str, summary: str, notes: list[str] | None = None
           ) -> list[dict[str, Any]]:
    entry: dict[str, Any] = {"node": node, "started": started, "finished": _now(),
                             "summary": summary}
    if notes:
        entry["notes"] = notes
    return [entry]


def _text(value: str, fallback: str) -> str:
    return value.strip() or fallback


def _facts(findings: Sequence[CheckFinding]) -> str:
    """The check's findings, fenced as data (their text is the paper's)."""
    return fence_untrusted(facts(findings), "CHECK")


async def plan_review(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
    """Editor: structure summary and one task per active reviewer."""
    started, paper = _now(), state["paper"]
    reviewers = active_reviewers(state["panel"])
    prompt = PROMPTS[EDITOR.role].render(
        paper=fence_untrusted(editor_view(paper)), reviewers=", ".join(reviewers),
        tasks="; ".join(f"{spec.task_field}: {spec.brief}" for spec in REVIEWERS),
        findings=_facts(for_lines(state.get("check"), None)))
    # The grounder indexes the paper on first use: do it while the editor's model works.
    warm = asyncio.to_thread(runtime.context.grounder.resolve_reference, paper, paper.title)
    (reply, warnings), _ = await asyncio.gather(structured_or_none(
        runtime.context.gateway, EDITOR.role, prompt, EditorDraft, node=EDITOR.role,
        outcome="the reviewers got their default tasks"), warm)
    draft = reply or EditorDraft(summary="")
    messages = [ReviewMessage(id=message_id(1, EDITOR.role, 0), sender=EDITOR.role,
                              receiver=META.role, kind="summary", confidence=1.0,
                              content=_text(draft.summary, "(no summary given)"))]
    messages += [ReviewMessage(id=message_id(1, EDITOR.role, n), sender=EDITOR.role,
                               receiver=role, kind="task", confidence=1.0,
                               content=_text(draft.task_for(REVIEWER_BY_ROLE[role]),
                                             REVIEWER_BY_ROLE[role].task))
                 for n, role in enumerate(reviewers, 1)]
    return {"round": 1, "messages": deliver(messages), "warnings": warnings,
            "history": _stamp(EDITOR.role, started, f"tasks for {', '.join(reviewers)}")}


def reviewer_node(spec: ReviewerSpec) -> Any:
    """The node of one reviewer: its view of the paper -> score, summary, comments (typed
    ``Any``: LangGraph's ``add_node`` overloads reject a plain callable type)."""
    async def review(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
        view = spec.view(state["paper"], runtime.context.input_chars)
        return await _review(state, runtime, spec, view)

    review.__name__ = review.__qualname__ = f"review_{spec.aspect}"
    review.__doc__ = f"{spec.name}: its view of the paper -> {spec.aspect} score, comments."
    return review


async def _review(state: ReviewState, runtime: Runtime[ReviewContext], spec: ReviewerSpec,
                  view: View) -> Update:
    started, ctx, paper, role = _now(), runtime.context, state["paper"], spec.role
    task = next((m.content for m in state.get("messages", [])
                 if m.kind == "task" and m.receiver == role), spec.task)
    text = ctx.grounder.numbered_text(paper, view.lines)  # original line ids
    related = await ctx.related_work.find(paper) \
        if spec.related_work and ctx.related_work is not None else []
    prompt = PROMPTS[role].render(task=fence_untrusted(task, "EDITOR_TASK"),
                                  paper=fence_untrusted(text) + related_block(related, paper),
                                  max_comments=ctx.max_comments,
                                  findings=_facts(for_lines(state.get("check"), view.lines)))
    draft, warnings = await structured_or_none(ctx.gateway, role, prompt, ReviewerDraft,
                                               node=role, outcome="no score and no comments")
    if draft is None:
        return {"warnings": warnings, "history": _stamp(role, started, "no valid review")}
    messages = [ReviewMessage(id=message_id(1, role, 0), sender=role, receiver=META.role,
                              kind="summary", score=draft.score, confidence=draft.confidence,
                              content=_text(draft.summary, "(no summary given)"))]
    comments = [c for c in draft.comments if c.content.strip()][: ctx.max_comments]
    messages += [_comment(paper, c, role, 1, n, receiver=META.role, shown=view.lines)
                 for n, c in enumerate(comments, 1)]
    summary = f"score {draft.score:g}, {len(comments)} comments from {len(view.sections)} sections"
    update: Update = {"messages": deliver(messages), "original_scores": {role: draft.score},
                      "history": _stamp(role, started, summary)}
    return {**update, "related_work": related} if related else update


def _comment(paper: Paper, draft: CommentDraft, sender: Any, round_: int, n: int, *,
             receiver: str, shown: list[LineRef], reply_to: str | None = None,
             target: Target | None = None) -> ReviewMessage:
    resolved = resolve_target(paper, draft.target) if draft.target.strip() else target
    cited = draft.references if isinstance(draft, ReviewerComment) else []
    return ReviewMessage(id=message_id(round_, sender, n), sender=sender, receiver=receiver,
                         round=round_, kind=draft.kind, target=resolved or Target(),
                         content=draft.content.strip(), confidence=draft.confidence,
                         references=[r for r in cited if r.strip()], cited=qualify(draft.lines.strip(), shown),
                         quote=draft.quote.strip(), reply_to=reply_to)


async def challenge_claims(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
    """Devil's advocate: a counter-hypothesis for each positive claim, tied to its excerpt."""
    started, ctx, round_ = _now(), runtime.context, state.get("round", 1)
    claims = arb.claims_for_round(state, round_)
    if not claims:
        return {"history": _stamp(DEVIL.role, started, "no positive claims to attack")}
    shown = {c.id: _claim_lines(ctx.grounder, state["paper"], c) for c in claims}
    text, aliases = claims_brief(
        claims, lambda c: ctx.grounder.numbered_text(state["paper"], shown[c.id])
        if shown[c.id] else "")
    prompt = PROMPTS[DEVIL.role].render(claims=fence_untrusted(text, "CLAIMS"))
    draft, warnings = await structured_or_none(ctx.gateway, DEVIL.role, prompt, DevilDraft,
                                               node=DEVIL.role, outcome="no attacks")
    if draft is None:
        return {"warnings": warnings, "history": _stamp(DEVIL.role, started,
                                                        f"round {round_}: no valid attacks")}
    by_id = {c.id: c for c in claims}
    messages: list[ReviewMessage] = []
    for n, attack in enumerate((a for a in draft.attacks if a.content.strip()), 1):
        claim_id = aliases.resolve(attack.claim) or claims[(n - 1) % len(claims)].id
        claim = by_id[claim_id]
        messages.append(_comment(state["paper"], attack, DEVIL.role, round_, n,
                                 receiver=claim.sender, shown=shown[claim_id],
                                 reply_to=claim.id, target=claim.target))
    attacked = len({m.reply_to for m in messages})
    return {"messages": deliver(messages),
            "history": _stamp(DEVIL.role, started,
                              f"round {round_}: {len(messages)} attacks on {attacked}/{len(claims)} claims")}


def _claim_lines(grounder: Grounder, paper: Paper, claim: ReviewMessage) -> list[LineRef]:
    """The lines a claim cited (at most MAX_CLAIM_LINES), none when they were not found."""
    evidence = grounder.cite(paper, claim.cited, claim.quote) if claim.cited else \
        grounder.ground(paper, claim.quote) if claim.quote.strip() else None
    if evidence is None or evidence.anchor is None:
        return []
    return anchor_lines(paper, evidence.anchor)[:MAX_CLAIM_LINES]


async def check_grounding(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
    """Grounding checker: cited lines, quotes and cited works through the Grounder (no LLM)."""
    started, ctx = _now(), runtime.context
    checks = await asyncio.to_thread(  # CPU work: keep the event loop free for other jobs
        check_new_messages, ctx.grounder, state["paper"], state.get("messages", []),
        set(state.get("checks", {})), unverified_weight=ctx.unverified_weight)
    found = sum(c.found for c in checks.values())
    return {"checks": checks,
            "history": _stamp("grounding_checker", started,
                              f"{found}/{len(checks)} messages found at their cited lines")}


async def judge_comments(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
    """Support judge: the checker model judges each new comment by its cited lines."""
    started, ctx = _now(), runtime.context
    new = {mid: check for mid, check in state.get("checks", {}).items()
           if mid not in state.get("judged", [])}
    checks, notes = await judge_checks(ctx.gateway, new, state.get("messages", []),
                                       unverified_weight=ctx.unverified_weight)
    supported = sum(c.support == "supported" for c in checks.values())
    summary = f"{supported}/{len(checks)} messages supported by their cited lines"
    return {"checks": checks, "judged": list(checks),
            "history": _stamp("support_judge", started,
                              summary + (f"; {len(notes)} notes" if notes else ""),
                              notes=notes)}


async def arbitrate(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
    """Meta-reviewer: settle disagreements, explicit score changes, recommendation, plan."""
    started, ctx, round_ = _now(), runtime.context, state.get("round", 1)
    disagreements = arb.find_disagreements(state, round_, ctx.second_round_threshold)
    scores = arb.current_scores(state)
    panel, aliases = panel_brief(state, state.get("checks", {}))
    prompt = PROMPTS[META.role].render(panel=fence_untrusted(panel, "PANEL"),
                                    disagreements=fence_untrusted(
                                        disagreements_brief(disagreements, aliases),
                                        "DISAGREEMENTS"),
                                    findings=_facts(high(state.get("check"))))
    try:
        draft, _ = await ask(ctx.gateway, META.role, prompt, MetaDraft, node=META.role,
                             check=lambda d: arb.score_change_errors(d, scores), strict=False)
    except StructuredOutputError as err:
        warning = invalid_output_warning(META.role, META.role, err,
                                         "no arbitration and no recommendation")
        return {"disagreements": disagreements, "warnings": [warning],
                "history": _stamp(META.role, started, f"round {round_}: no valid decision")}
    changes = arb.settle_changes(draft, scores, round_)
    arbitrations = arb.settle_disagreements(disagreements, draft.arbitrations, round_)
    after = arb.current_scores({**state, "score_changes": [*state.get("score_changes", []),
                                                            *changes]})
    unresolved = arb.spread(after)
    next_round = (DEVIL.role in state["panel"] and round_ < ctx.max_rounds
                  and unresolved > ctx.second_round_threshold)
    plan = [RevisionItem(priority=n, action=p.action.strip(),
                         addresses=[i for a in p.addresses if (i := aliases.resolve(a))])
            for n, p in enumerate((p for p in draft.revision_plan if p.action.strip()), 1)]
    decision = arb.decision(round_, draft, plan, unresolved, next_round)
    messages = _meta_messages(round_, arbitrations, changes, plan, decision.recommendation)
    summary = (f"round {round_}: {decision.recommendation}, {len(arbitrations)} arbitrations, "
               f"{sum(c.accepted for c in changes)}/{len(changes)} score changes accepted, "
               f"spread {unresolved:g}{' -> another round' if next_round else ''}")
    return {"disagreements": disagreements, "arbitrations": arbitrations,
            "score_changes": changes, "decisions": [decision], "messages": deliver(messages),
            "round": round_ + 1 if next_round else round_,
            "history": _stamp(META.role, started, summary)}


def _meta_messages(round_: int, arbitrations: list[Any], changes: list[Any],
                   plan: list[RevisionItem], recommendation: str) -> list[ReviewMessage]:
    out = [ReviewMessage(id=message_id(round_, META.role, 0), sender=META.role, receiver="all",
                         round=round_, kind="summary", confidence=1.0,
                         content=f"recommendation: {recommendation}")]
    for a in arbitrations:
        out.append(ReviewMessage(id=message_id(round_, META.role, len(out)), sender=META.role,
                                 receiver="all", round=round_, kind="arbitration", confidence=1.0,
                                 reply_to=a.disagreement_id, content=f"{a.verdict}: {a.reason}"))
    for c in changes:
        out.append(ReviewMessage(id=message_id(round_, META.role, len(out)), sender=META.role,
                                 receiver=c.reviewer, round=round_, kind="score_change",
                                 confidence=1.0, from_score=c.from_score, to_score=c.to_score,
                                 content=c.label() if c.accepted else f"REJECTED: {c.rejection}"))
    for item in plan:
        out.append(ReviewMessage(id=message_id(round_, META.role, len(out)), sender=META.role,
                                 receiver="authors", round=round_, kind="plan_item",
                                 confidence=1.0, content=f"{item.priority}. {item.action}"))
    return out


async def request_signoff(state: ReviewState, runtime: Runtime[ReviewContext]) -> Update:
    """Optional human sign-off: pauses the run (interrupt) until a person answers."""
    started = _now()
    if not runtime.context.signoff:
        return {"signoff": {"requested": False},
                "history": _stamp("human_signoff", started, "not requested")}
    decision = state.get("decisions", [])[-1:]
    answer = interrupt({"question": "Sign off this pre-review report? (approved, note)",
                        "recommendation": decision[0].recommendation if decision else None,
                        "scores": arb.current_scores(state)})
    approved = bool(answer.get("approved")) if isinstance(answer, dict) else bool(answer)
    note = str(answer.get("note", "")) if isinstance(answer, dict) else ""
    return {"signoff": {"requested": True, "approved": approved, "note": note, "at": _now()},
            "history": _stamp("human_signoff", started,
                              "approved" if approved else "not approved")}


def route_reviewers(state: ReviewState) -> list[str]:
    """Fan-out: the active reviewers run in parallel."""
    return active_reviewers(state["panel"])


def route_after_reviews(state: ReviewState) -> Literal["devil", "grounding_checker"]:
    return "devil" if DEVIL.role in state["panel"] else "grounding_checker"


def route_after_meta(state: ReviewState) -> Literal["devil", "human_signoff"]:
    decisions = state.get("decisions", [])
    return "devil" if decisions and decisions[-1].next_round else "human_signoff"
