"""Disagreements, frozen scores and explicit score changes (pure functions over state)."""

from __future__ import annotations

from papermind.domain.review import (
    Arbitration,
    Disagreement,
    MetaDecision,
    ReviewMessage,
    RevisionItem,
    ScoreChange,
)
from papermind.workflows.review.drafts import ArbitrationDraft, MetaDraft, ScoreChangeDraft
from papermind.workflows.review.metrics import MATCH, jaccard, terms
from papermind.workflows.review.state import ReviewState


def current_scores(state: ReviewState) -> dict[str, float]:
    """Each reviewer's frozen original score with the accepted changes applied in order."""
    scores = dict(state.get("original_scores", {}))
    for change in state.get("score_changes", []):
        if change.accepted and change.reviewer in scores:
            scores[change.reviewer] = change.to_score
    return scores


def spread(scores: dict[str, float]) -> float:
    return max(scores.values()) - min(scores.values()) if len(scores) > 1 else 0.0


def find_disagreements(state: ReviewState, round_: int, threshold: float) -> list[Disagreement]:
    """Every attack of this round against its claim, and a score spread above ``threshold``."""
    by_id = {m.id: m for m in state.get("messages", [])}
    found: list[Disagreement] = []
    for message in state.get("messages", []):
        if message.kind != "attack" or message.round != round_ or message.reply_to not in by_id:
            continue
        claim = by_id[message.reply_to]
        found.append(Disagreement(
            id=f"D{round_}.{len(found) + 1}", kind="claim_vs_attack", round=round_,
            message_ids=[claim.id, message.id],
            summary=f"{claim.sender} claims: {claim.content} / devil: {message.content}"))
    if round_ == 1:
        found += _conflicts(state.get("messages", []), len(found))
    scores = current_scores(state)
    if spread(scores) > threshold:
        listed = ", ".join(f"{role} {score:g}" for role, score in scores.items())
        found.append(Disagreement(
            id=f"D{round_}.{len(found) + 1}", kind="score_spread", round=round_,
            message_ids=[m.id for m in state.get("messages", [])
                         if m.kind == "summary" and m.score is not None],
            summary=f"reviewer scores differ by {spread(scores):g} ({listed})"))
    return found


def _conflicts(messages: list[ReviewMessage], start: int) -> list[Disagreement]:
    """A reviewer's strength and another reviewer's issue about the same thing."""
    strengths = [m for m in messages if m.kind == "strength"]
    issues = [m for m in messages if m.kind == "issue"]
    found: list[Disagreement] = []
    for good in strengths:
        for bad in issues:
            if good.sender != bad.sender and _same_subject(good, bad):
                found.append(Disagreement(
                    id=f"D1.{start + len(found) + 1}", kind="reviewer_conflict",
                    message_ids=[good.id, bad.id],
                    summary=f"{good.sender}: {good.content} / {bad.sender}: {bad.content}"))
    return found


def _same_subject(a: ReviewMessage, b: ReviewMessage) -> bool:
    if a.target.anchor is not None and a.target.anchor == b.target.anchor:
        return True
    return jaccard(terms(f"{a.content} {a.quote}"), terms(f"{b.content} {b.quote}")) >= MATCH


def score_change_errors(draft: MetaDraft, scores: dict[str, float]) -> list[str]:
    """Why each proposed score change is not acceptable (empty when all are)."""
    return [error for change in draft.score_changes
            if (error := _change_error(change, scores)) is not None]


def _change_error(change: ScoreChangeDraft, scores: dict[str, float]) -> str | None:
    if change.reviewer not in scores:
        return f"score change for unknown reviewer {change.reviewer!r}"
    if not change.reason.strip():
        return (f"score change for {change.reviewer} from {change.from_score:g} to "
                f"{change.to_score:g} has no reason; every change needs 'because ...'")
    if abs(change.from_score - scores[change.reviewer]) > 1e-6:
        return (f"score change for {change.reviewer} must start from its current score "
                f"{scores[change.reviewer]:g}, not {change.from_score:g}")
    return None


def settle_changes(draft: MetaDraft, scores: dict[str, float], round_: int) -> list[ScoreChange]:
    """Score changes of ``draft``: valid ones accepted, the others kept but rejected."""
    settled: list[ScoreChange] = []
    for change in draft.score_changes:
        error = _change_error(change, scores)
        if change.reviewer in scores and change.to_score == scores[change.reviewer] and not error:
            continue  # not a change
        settled.append(ScoreChange(
            reviewer=change.reviewer, from_score=change.from_score, to_score=change.to_score,
            reason=change.reason.strip() or "(none given)", round=round_,
            accepted=error is None, rejection=error))
    return settled


def settle_disagreements(disagreements: list[Disagreement], drafts: list[ArbitrationDraft],
                         round_: int) -> list[Arbitration]:
    """One arbitration per disagreement; one the meta-reviewer skipped stays unresolved."""
    by_id = {d.disagreement.strip(): d for d in drafts}
    settled: list[Arbitration] = []
    for disagreement in disagreements:
        draft = by_id.get(disagreement.id)
        if draft is None:
            settled.append(Arbitration(disagreement_id=disagreement.id, verdict="unresolved",
                                       reason="not arbitrated by the meta-reviewer", round=round_))
        else:
            settled.append(Arbitration(disagreement_id=disagreement.id, verdict=draft.verdict,
                                       reason=draft.reason.strip() or "(no reason given)",
                                       round=round_))
    return settled


def claims_for_round(state: ReviewState, round_: int) -> list[ReviewMessage]:
    """Positive claims the devil attacks: all in round 1, the still-contested ones later."""
    claims = [m for m in state.get("messages", []) if m.kind == "strength"]
    if round_ <= 1:
        return claims
    open_ids = {mid for d in state.get("disagreements", []) for mid in d.message_ids
                if d.round == round_ - 1 and _verdict(state, d.id) != "attack_stands"}
    contested = [c for c in claims if c.id in open_ids]
    if contested:
        return contested
    scores = current_scores(state)
    top = max(scores.values(), default=0.0)
    return [c for c in claims if scores.get(c.sender) == top] or claims


def _verdict(state: ReviewState, disagreement_id: str) -> str | None:
    for arbitration in reversed(state.get("arbitrations", [])):
        if arbitration.disagreement_id == disagreement_id:
            return arbitration.verdict
    return None


def decision(round_: int, draft: MetaDraft, plan: list[RevisionItem], unresolved: float,
             next_round: bool) -> MetaDecision:
    return MetaDecision(round=round_, recommendation=draft.recommendation,
                        confidence=draft.confidence, revision_plan=plan,
                        unresolved=unresolved, next_round=next_round)
