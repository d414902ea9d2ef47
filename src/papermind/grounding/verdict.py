"""The verdict used by every workflow: locate a quote, check the claim it supports.

``ground_quote`` returns Evidence whose ``verified`` is true only when code found the quote
(see ``locator`` for the policy) and no claim check failed. ``evidence_json`` is the one
JSON shape of an evidence item in every report.
"""

from __future__ import annotations

from typing import Any

from papermind.domain import Evidence, Paper, VerificationSummary
from papermind.grounding.claims import check_claim
from papermind.grounding.locator import QuoteLocator


def ground_quote(paper_or_locator: Paper | QuoteLocator, quote: str,
                 claim: str | None = None) -> Evidence:
    """Locate ``quote``; when ``claim`` is given, check it against what was found."""
    locator = (paper_or_locator if isinstance(paper_or_locator, QuoteLocator)
               else QuoteLocator(paper_or_locator))
    evidence = locator.locate(quote)
    if claim is None or not claim.strip():
        return evidence
    failures = check_claim(claim, evidence, locator.paper)
    if not failures:
        return evidence
    reasons = [*evidence.reasons, *(r for r in failures if r not in evidence.reasons)]
    return evidence.model_copy(update={"verified": False, "reasons": reasons})


def evidence_json(evidence: Evidence) -> dict[str, Any]:
    """Report form: ``anchor`` is null unless verified; a found-but-unverified location is
    kept under ``located_at`` so a reader can see what the paper says instead."""
    anchor = evidence.anchor
    where = None if anchor is None else {
        "page": anchor.page, "line_start": anchor.line_start, "line_end": anchor.line_end,
        "page_end": anchor.page_end, "label": anchor.label(),
        "boxes": [box.model_dump() for box in anchor.boxes],
    }
    return {
        "quote": evidence.quote,
        "verified": evidence.verified,
        "found": anchor is not None,
        "anchor": where if evidence.verified else None,
        "located_at": None if evidence.verified else where,
        "text": evidence.matched_text,
        "score": evidence.score,
        "method": evidence.method,
        "reasons": list(evidence.reasons),
    }


def summary_json(items: list[Evidence]) -> dict[str, Any]:
    """Per-report summary: how many items, how many verified, and the unverified quotes."""
    summary = VerificationSummary.of(items)
    return {"total": summary.total, "verified": summary.verified,
            "share_verified": round(summary.share_verified, 4), "unverified": summary.unverified}
