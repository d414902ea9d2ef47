"""Assemble the ReviewReport from a finished run's state.

Evidence is stored as data in the one evidence JSON shape (``papermind.reports``); a comment
is "verified" only when found AND supported; an unresolved cited work is a separate flag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from papermind.domain import Paper
from papermind.domain.check import CheckReport
from papermind.domain.review import (
    FinalScore,
    MessageCheck,
    ReportComment,
    ReportFlag,
    ReviewMessage,
    ReviewMetrics,
    ReviewReport,
    ReviewVerification,
    RevisionItem,
    UnverifiedItem,
)
from papermind.reports import evidence_json
from papermind.workflows.review.arbitration import current_scores
from papermind.workflows.review.check_facts import unaddressed
from papermind.workflows.review.consistency import recommendation_flag, withheld_reason
from papermind.workflows.review.metrics import compute_metrics
from papermind.workflows.review.panel import ASPECTS, display_name, message_label
from papermind.workflows.review.state import ReviewState

COMMENT_KINDS = frozenset({"strength", "issue", "attack"})


def build_report(state: Mapping[str, Any], *, models: dict[str, str] | None = None,
                 usage: dict[str, Any] | None = None, demo_quality: bool = False) -> ReviewReport:
    """The report of a run that reached the meta-reviewer (or its sign-off)."""
    review: ReviewState = dict(state)  # type: ignore[assignment]
    paper: Paper = review["paper"]
    messages = review.get("messages", [])
    checks = review.get("checks", {})
    decisions = review.get("decisions", [])
    last = decisions[-1] if decisions else None
    numbers: dict[tuple[str, int], int] = {}
    comments = [_comment(m, checks.get(m.id), _next(numbers, m))
                for m in messages if m.kind in COMMENT_KINDS]
    plan = [_locate(item, checks) for item in (last.revision_plan if last else [])]
    metrics = compute_metrics(messages, checks, plan)
    recommendation = last.recommendation if last else None
    withheld = withheld_reason(metrics) if recommendation else ""
    if withheld:
        recommendation = None
    flags = [f for f in [recommendation_flag(recommendation, current_scores(review))] if f]
    return ReviewReport(
        paper_id=paper.id, title=paper.title or paper.source_name,
        demo_quality=demo_quality, panel=list(review.get("panel", [])),
        names={role: display_name(role) for role in review.get("panel", [])}, models=models or {},
        findings=list(paper.findings), check=review.get("check"),
        unaddressed=unaddressed(review.get("check"), comments),
        editor_summary=next((m.content for m in messages
                             if m.sender == "editor" and m.kind == "summary"), ""),
        scores=_scores(review), recommendation=recommendation,
        recommendation_confidence=last.confidence if last and not withheld else 0.0,
        recommendation_withheld=withheld,
        rounds=max((d.round for d in decisions), default=0),
        comments=comments, disagreements=review.get("disagreements", []),
        arbitrations=review.get("arbitrations", []),
        score_changes=review.get("score_changes", []), revision_plan=plan,
        unverified=_unverified(messages, checks), flags=flags,
        metrics=metrics, verification=_verification(comments),
        usage=usage or {}, history=list(review.get("history", [])),
        warnings=list(review.get("warnings", [])), signoff=review.get("signoff"),
        related_work=list(review.get("related_work", [])))


def _next(numbers: dict[tuple[str, int], int], message: ReviewMessage) -> str:
    """The message's human label: its sender's n-th comment (attack) of its round."""
    key = (message.sender, message.round)
    numbers[key] = numbers.get(key, 0) + 1
    return message_label(message.sender, message.round, numbers[key])


def _comment(message: ReviewMessage, check: MessageCheck | None, label: str) -> ReportComment:
    flags = [ReportFlag(kind="unresolved_reference", message_id=message.id,
                        message=f"cites '{r.cited}', which is not in the paper's bibliography")
             for r in (check.references if check else []) if not r.resolved]
    return ReportComment(
        message_id=message.id, label=label, sender=message.sender, kind=message.kind,
        round=message.round,
        target=message.target.label or "paper", content=message.content,
        confidence=message.confidence, weight=check.weight if check else message.confidence,
        found=bool(check and check.found), support=check.support if check else "unchecked",
        verified=bool(check and check.verified), cited=message.cited,
        quote=message.quote, reply_to=message.reply_to,
        evidence=[evidence_json(e) for e in (check.evidence if check else [])],
        references=check.references if check else [], flags=flags)


def _scores(state: ReviewState) -> list[FinalScore]:
    final = current_scores(state)
    changes = {c.reviewer: c for c in state.get("score_changes", []) if c.accepted}
    return [FinalScore(reviewer=role, name=display_name(role), aspect=ASPECTS.get(role, ""),
                       original=original,
                       final=final[role], change=changes[role].label() if role in changes else None)
            for role, original in state.get("original_scores", {}).items()]


def _locate(item: RevisionItem, checks: dict[str, MessageCheck]) -> RevisionItem:
    """The plan item with the found evidence of the messages it addresses."""
    evidence = [evidence_json(e) for mid in item.addresses if (c := checks.get(mid))
                for e in c.evidence if e.found]
    return item.model_copy(update={"evidence": evidence})


def _verification(comments: list[ReportComment]) -> ReviewVerification:
    total = len(comments)
    found = [c for c in comments if c.found]

    def count(verdict: str) -> int:
        return sum(c.support == verdict for c in found)

    return ReviewVerification(
        total=total, found=len(found), supported=count("supported"),
        contradicted=count("contradicted"), not_enough=count("not_enough"),
        unchecked=count("unchecked"),
        share_found=round(len(found) / total, 4) if total else 0.0,
        share_supported=round(count("supported") / total, 4) if total else 0.0,
        references_unresolved=sum(bool(c.flags) for c in comments))


def _unverified(messages: list[ReviewMessage], checks: dict[str, MessageCheck]
                ) -> list[UnverifiedItem]:
    items: list[UnverifiedItem] = []
    for message in messages:
        check = checks.get(message.id)
        if message.kind not in COMMENT_KINDS or check is None:
            continue
        if not check.evidence:
            items.append(UnverifiedItem(kind="evidence", text="(no lines cited)",
                                        message_id=message.id, sender=message.sender,
                                        reason="nothing to anchor"))
        for evidence in check.evidence:
            if not evidence.verified:
                items.append(UnverifiedItem(
                    kind="evidence", text=evidence.cited or evidence.quote,
                    message_id=message.id, sender=message.sender,
                    reason="; ".join(evidence.reasons) or evidence.support.reason
                    or f"support {evidence.support.verdict}", evidence=evidence_json(evidence)))
        for ref in check.references:
            if not ref.resolved:
                items.append(UnverifiedItem(kind="reference", text=ref.cited,
                                            message_id=message.id, sender=message.sender,
                                            reason="not in the paper's bibliography"))
    return items


SCORING_NOTE = ("No scores and no recommendation: scoring a paper needs a configured model "
                "(see 'Language models'); the bundled offline model only runs the code check, "
                "whose findings are listed by aspect.")


def offline_report(paper: Paper, check: CheckReport, *, models: dict[str, str] | None = None,
                   usage: dict[str, Any] | None = None) -> ReviewReport:
    """The review with the bundled model: the check's findings by aspect (each with an empty
    comment field for a checked one-sentence comment), no invented scores or recommendation."""
    return ReviewReport(
        paper_id=paper.id, title=paper.title or paper.source_name, demo_quality=True,
        models=models or {}, findings=list(paper.findings), check=check,
        unaddressed=unaddressed(check, []), scoring_note=SCORING_NOTE,
        metrics=ReviewMetrics(issue_overlap=0.0, independence=1.0), usage=usage or {})
