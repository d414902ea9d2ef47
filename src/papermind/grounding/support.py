"""Model-free support checks: code may lower a claim's support, never raise it.

``check_support(evidence, claim, paper)`` runs the checks of ``claims`` on the text at the
anchor and sets ``Support(verdict, by='code', reason)`` when one fails: ``contradicted``
when the cited text says otherwise, ``not_enough`` when it does not say what the claim
states. When every check passes the support stays as it was (``unchecked`` unless set): code
cannot tell that a claim is supported, only that it is not.
"""

from __future__ import annotations

from papermind.domain import Evidence, Paper, Support
from papermind.grounding.claims import check_claim, sentence_window
from papermind.grounding.facts import facts_of
from papermind.grounding.relatedness import relatedness


def around_anchor(evidence: Evidence, paper: Paper) -> str:
    """The sentences that hold the evidence, with one sentence either side."""
    anchor = evidence.anchor
    if anchor is None:
        return ""
    around = facts_of(paper).context(anchor.page, anchor.line_start,
                                     anchor.page_end or anchor.page, anchor.line_end)
    return sentence_window(around, evidence.matched_text)


def check_support(evidence: Evidence, claim: str, paper: Paper) -> Evidence:
    """``evidence`` with ``claim`` attached and its code support verdict (if any failed)."""
    evidence = evidence.model_copy(update={"claim": claim})
    if not claim.strip() or not evidence.found:
        return evidence  # unfound evidence says nothing either way; its reasons say why
    evidence = evidence.model_copy(update={"related": relatedness(
        claim, evidence.matched_text, around_anchor(evidence, paper)).share})
    failures = check_claim(claim, evidence, paper)
    if not failures:
        return evidence
    verdict = "contradicted" if any(f.contradicts for f in failures) else "not_enough"
    reason = "; ".join(f.reason for f in failures)
    if evidence.support.by == "code" and evidence.support.reason:
        reason = f"{evidence.support.reason}; {reason}"
    reasons = [*evidence.reasons, *(f.reason for f in failures if f.reason not in evidence.reasons)]
    support = Support(verdict=verdict, by="code", reason=reason)
    return evidence.model_copy(update={"reasons": reasons}).with_support(support)
