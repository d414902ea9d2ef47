"""Process metrics measured on every run: independence, adversarial coverage, traceability
(share found) and share supported."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import combinations

from papermind.domain.review import MessageCheck, ReviewMessage, ReviewMetrics, RevisionItem
from papermind.i18n.query_terms import APPARATUS_WORDS, STOP_WORDS
from papermind.workflows.review.panel import REVIEWER_ROLES

_WORD = re.compile(r"[a-z0-9]+")
_STOP = STOP_WORDS | APPARATUS_WORDS
MATCH = 0.5
"""Two issues whose normalised term sets have Jaccard >= MATCH count as the same issue."""


def terms(text: str) -> frozenset[str]:
    """Normalised content words of ``text``."""
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _issue_key(message: ReviewMessage) -> frozenset[str]:
    return terms(f"{message.content} {message.target.label}")


def _pair_overlap(a: list[ReviewMessage], b: list[ReviewMessage]) -> float:
    """Share of the two reviewers' issues that have a near-duplicate in the other's."""
    if not a or not b:
        return 0.0
    ka, kb = [_issue_key(m) for m in a], [_issue_key(m) for m in b]
    matched_a = sum(any(jaccard(x, y) >= MATCH for y in kb) for x in ka)
    matched_b = sum(any(jaccard(y, x) >= MATCH for x in ka) for y in kb)
    return (matched_a + matched_b) / (len(a) + len(b))


def _tied(attack: ReviewMessage, claim: ReviewMessage | None, check: MessageCheck | None) -> bool:
    """An attack is tied to an excerpt when its cited lines are found, or its quote is (in)
    the claim's quote."""
    if check is not None and check.found:
        return True
    if not attack.quote.strip():
        return False
    if claim is None or not claim.quote.strip():
        return False
    quote, excerpt = " ".join(attack.quote.lower().split()), " ".join(claim.quote.lower().split())
    return quote in excerpt or jaccard(terms(quote), terms(excerpt)) >= MATCH


def compute_metrics(messages: list[ReviewMessage], checks: dict[str, MessageCheck],
                    plan: list[RevisionItem]) -> ReviewMetrics:
    """All three metrics from the message log, the grounding checks and the final plan."""
    issues = {r: [m for m in messages if m.sender == r and m.kind == "issue"] for r in REVIEWER_ROLES}
    active = [r for r in REVIEWER_ROLES if any(m.sender == r for m in messages)]
    pairs = {f"{a}~{b}": round(_pair_overlap(issues[a], issues[b]), 4)
             for a, b in combinations(active, 2)}
    overlap = sum(pairs.values()) / len(pairs) if pairs else 0.0
    by_id = {m.id: m for m in messages}
    claims = [m for m in messages if m.kind == "strength"]
    attacks = [m for m in messages if m.kind == "attack"]
    attacked = {a.reply_to for a in attacks}
    tied = sum(_tied(a, by_id.get(a.reply_to or ""), checks.get(a.id)) for a in attacks)
    comments = [m for m in messages if m.kind in {"strength", "issue", "attack"}]
    traceable = _count(comments, plan, checks, lambda c: c.found)
    supported = _count(comments, plan, checks, lambda c: c.verified)
    total = len(comments) + len(plan)
    return ReviewMetrics(
        issue_overlap=round(overlap, 4), independence=round(1 - overlap, 4), pair_overlap=pairs,
        positive_claims=len(claims), claims_attacked=sum(c.id in attacked for c in claims),
        attack_coverage=_share(sum(c.id in attacked for c in claims), len(claims)),
        attacks=len(attacks), attacks_tied=tied, attacks_tied_share=_share(tied, len(attacks)),
        comments=total, comments_traceable=traceable, traceability=_share(traceable, total),
        comments_supported=supported, share_supported=_share(supported, total))


def _count(comments: list[ReviewMessage], plan: list[RevisionItem],
           checks: dict[str, MessageCheck], holds: Callable[[MessageCheck], bool]) -> int:
    """Comments, and plan items addressing one, whose check ``holds``."""
    count = sum(bool((c := checks.get(m.id)) and holds(c)) for m in comments)
    return count + sum(any((c := checks.get(i)) is not None and holds(c) for i in item.addresses)
                       for item in plan)


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0
