"""Independence, adversarial coverage and traceability on hand-made message logs."""

from __future__ import annotations

from papermind.domain import Anchor, Evidence, Support, SupportVerdict
from papermind.domain.review import MessageCheck, ReviewMessage, RevisionItem, Target
from papermind.workflows.review.metrics import compute_metrics


def _m(id_: str, sender: str, kind: str, content: str, *, quote: str = "",
       reply_to: str | None = None, target: str = "") -> ReviewMessage:
    return ReviewMessage(id=id_, sender=sender, receiver="meta", kind=kind,  # type: ignore[arg-type]
                         content=content, confidence=0.8, quote=quote, reply_to=reply_to,
                         target=Target(label=target))


def _check(id_: str, verdict: SupportVerdict = "supported") -> MessageCheck:
    """A found check whose lines got ``verdict``."""
    anchor = Anchor(page=1, line_start=1, line_end=2)
    evidence = Evidence(quote="q", anchor=anchor, support=Support(verdict=verdict, by="code"))
    return MessageCheck(message_id=id_, found=True, support=verdict, weight=0.8,
                        evidence=[evidence])


def test_overlapping_issues_lower_independence() -> None:
    same = "No variance over random seeds is reported for LexGLUE"
    messages = [_m("a", "methodology_reviewer", "issue", same, target="Table 1"),
                _m("b", "experiment_reviewer", "issue", same + " results", target="Table 1"),
                _m("c", "experiment_reviewer", "issue", "Baselines are outdated and weak")]
    metrics = compute_metrics(messages, {}, [])
    assert metrics.pair_overlap == {"methodology_reviewer~experiment_reviewer": round(2 / 3, 4)}
    assert metrics.independence == round(1 - 2 / 3, 4)
    disjoint = compute_metrics(messages[:1] + messages[2:], {}, [])
    assert disjoint.independence == 1.0


def test_coverage_ties_and_traceability() -> None:
    messages = [
        _m("s1", "contribution_reviewer", "strength", "Novel routing", quote="a routing scheme that keeps clauses"),
        _m("s2", "experiment_reviewer", "strength", "Solid gains", quote="improves macro-F1 by 2.4 points"),
        _m("d1", "devil", "attack", "Tuning effect", quote="routing scheme", reply_to="s1"),
        _m("d2", "devil", "attack", "Cherry-picked", quote="", reply_to="s1"),
    ]
    plan = [RevisionItem(priority=1, action="x", addresses=["s2"]),
            RevisionItem(priority=2, action="y", addresses=["d2"])]
    checks = {"s2": _check("s2"), "s1": _check("s1", "contradicted")}
    metrics = compute_metrics(messages, checks, plan)
    assert (metrics.positive_claims, metrics.claims_attacked, metrics.attack_coverage) == (2, 1, 0.5)
    assert (metrics.attacks, metrics.attacks_tied, metrics.attacks_tied_share) == (2, 1, 0.5)
    # found: s1, s2 and the plan item on s2; supported (found AND supported): s2 and its item
    assert (metrics.comments, metrics.comments_traceable, metrics.comments_supported) == (6, 3, 2)
    assert metrics.traceability == round(3 / 6, 4) and metrics.share_supported == round(2 / 6, 4)
