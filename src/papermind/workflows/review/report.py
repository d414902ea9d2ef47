"""Assemble the ReviewReport from a finished run's state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from papermind.domain import Paper
from papermind.domain.review import (
    FinalScore,
    MessageCheck,
    ReportComment,
    ReviewMessage,
    ReviewReport,
    RevisionItem,
    UnverifiedItem,
)
from papermind.workflows.review.arbitration import ASPECTS, current_scores
from papermind.workflows.review.metrics import compute_metrics
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
    comments = [_comment(m, checks.get(m.id)) for m in messages if m.kind in COMMENT_KINDS]
    plan = [_locate(item, checks) for item in (last.revision_plan if last else [])]
    verified = [c for c in comments if c.verified]
    return ReviewReport(
        paper_id=paper.id, title=paper.title or paper.source_name,
        demo_quality=demo_quality, panel=list(review.get("panel", [])), models=models or {},
        findings=list(paper.findings),
        editor_summary=next((m.content for m in messages
                             if m.sender == "editor" and m.kind == "summary"), ""),
        scores=_scores(review),
        recommendation=last.recommendation if last else None,
        recommendation_confidence=last.confidence if last else 0.0,
        rounds=max((d.round for d in decisions), default=0),
        comments=comments, disagreements=review.get("disagreements", []),
        arbitrations=review.get("arbitrations", []),
        score_changes=review.get("score_changes", []), revision_plan=plan,
        unverified=_unverified(messages, checks),
        metrics=compute_metrics(messages, checks, plan),
        verification={"total": len(comments), "verified": len(verified),
                      "share_verified": round(len(verified) / len(comments), 4) if comments else 1.0,
                      "unverified": [c.quote or f"[{c.message_id}] (no quote)"
                                     for c in comments if not c.verified]},
        usage=usage or {}, history=list(review.get("history", [])),
        signoff=review.get("signoff"))


def _comment(message: ReviewMessage, check: MessageCheck | None) -> ReportComment:
    verified = bool(check and check.verified)
    anchor = check.evidence[0].anchor if check and check.evidence else None
    return ReportComment(
        message_id=message.id, sender=message.sender, kind=message.kind, round=message.round,
        target=message.target.label or "paper", content=message.content,
        confidence=message.confidence, weight=check.weight if check else message.confidence,
        verified=verified,
        location=anchor.label() if verified and anchor is not None else "UNVERIFIED",
        quote=message.quote, reply_to=message.reply_to,
        evidence=check.evidence if check else [], references=check.references if check else [])


def _scores(state: ReviewState) -> list[FinalScore]:
    final = current_scores(state)
    changes = {c.reviewer: c for c in state.get("score_changes", []) if c.accepted}
    return [FinalScore(reviewer=role, aspect=ASPECTS.get(role, ""), original=original,
                       final=final[role], change=changes[role].label() if role in changes else None)
            for role, original in state.get("original_scores", {}).items()]


def _locate(item: RevisionItem, checks: dict[str, MessageCheck]) -> RevisionItem:
    labels = [c.evidence[0].anchor.label() for mid in item.addresses
              if (c := checks.get(mid)) and c.verified and c.evidence and c.evidence[0].anchor]
    return item.model_copy(update={"locations": labels})


def _unverified(messages: list[ReviewMessage], checks: dict[str, MessageCheck]
                ) -> list[UnverifiedItem]:
    items: list[UnverifiedItem] = []
    for message in messages:
        check = checks.get(message.id)
        if message.kind not in COMMENT_KINDS or check is None:
            continue
        if not check.evidence:
            items.append(UnverifiedItem(kind="quote", text="(no quote given)",
                                        message_id=message.id, sender=message.sender,
                                        reason="nothing to anchor"))
        for evidence in check.evidence:
            if not evidence.verified:
                items.append(UnverifiedItem(
                    kind="quote", text=evidence.quote, message_id=message.id,
                    sender=message.sender, reason="; ".join(evidence.reasons) or "not found"))
        for ref in check.references:
            if not ref.resolved:
                items.append(UnverifiedItem(kind="reference", text=ref.cited,
                                            message_id=message.id, sender=message.sender,
                                            reason="not in the paper's bibliography"))
    return items
