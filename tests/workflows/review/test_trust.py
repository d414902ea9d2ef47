"""Adversarial answers on the scripted fake model: what must never be shown as verified.

- a comment citing an invented work keeps its found anchor and carries the reference flag
  (before issue 12 it lost its location and was listed UNVERIFIED);
- a comment whose numbers disagree with its cited lines is not verified, even when the
  checker model (fooled) says "supported";
- the meta-reviewer sees both verdicts; a recommendation contradicting every score is flagged.
"""

from __future__ import annotations

from typing import Any

import pytest

from papermind.domain import Paper
from papermind.domain.review import ReportComment, ReviewMetrics, ReviewReport
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.consistency import (
    HIGH_SCORE,
    LOW_SCORE,
    MIN_TRACEABILITY,
    THRESHOLDS,
    recommendation_flag,
    verdict_line,
)
from papermind.workflows.review.render import to_html, to_markdown
from papermind.workflows.review.report import build_report
from tests.support.review_script import (
    EXPERIMENT,
    META,
    checker_answers,
    reviewer,
    run_review,
    script,
)


def _experiment(strength: tuple[str, str, str], issue: tuple[str, str, str, list[str]]
                ) -> dict[str, Any]:
    return reviewer(5, strength, issue, "Table 1")


async def _run(paper: Paper, **changes: Any) -> tuple[ReviewReport, Any]:
    gateway = fake_gateway(script(**changes))
    result = await run_review(gateway, paper, unverified_weight=0.5)
    return build_report(result.state), gateway


def _by_sender(report: ReviewReport, sender: str, kind: str) -> ReportComment:
    return next(c for c in report.comments if c.sender == sender and c.kind == kind)


async def test_invented_work_keeps_the_anchor_and_carries_the_flag(paper: Paper) -> None:
    invented = _experiment(
        ("The gain of 2.4 points over Longformer is solid.", "1:24",
         "Zebraformer improves macro-F1 by 2.4 points"),
        ("Only three random seeds are used, as criticised by Quux and Zorp (2031).",
         "1:21-22", "with three random seeds", ["Quux and Zorp, 2031"]))
    report, _ = await _run(paper, experiment_reviewer=[invented])
    comment = _by_sender(report, "experiment_reviewer", "issue")
    assert comment.found and comment.evidence[0]["anchor"]["label"] == "p. 1, l. 21-22"
    assert [f.kind for f in comment.flags] == ["unresolved_reference"]
    assert not comment.verified
    assert comment.weight < comment.confidence * 0.5 + 1e-9  # down-weighted, not dropped
    md, html = to_markdown(report), to_html(report)
    line = next(x for x in md.splitlines() if f"**{comment.label}** issue" in x)
    assert "not verified" in line and "cites a work not in the bibliography" in line
    assert "[p. 1, l. 21-22](" in md and "unresolved reference: cites 'Quux and Zorp, 2031'" in md
    assert 'data-page="1" data-line-start="21" data-line-end="22"' in html
    assert report.verification.references_unresolved == 1


async def test_numbers_disagreeing_with_cited_lines_are_never_verified(paper: Paper) -> None:
    wrong = _experiment(
        ("Zebraformer improves macro-F1 by 4.7 points over Longformer.", "1:24-25", ""),
        EXPERIMENT_ISSUE)
    report, gateway = await _run(paper, experiment_reviewer=[wrong],
                                 checker=[checker_answers()])  # a fooled checker: all supported
    comment = _by_sender(report, "experiment_reviewer", "strength")
    assert comment.found and comment.support == "contradicted" and not comment.verified
    evidence = comment.evidence[0]
    assert evidence["support"]["by"] == "code" and "4.7" in evidence["support"]["reason"]
    assert not evidence["verified"] and evidence["status"].startswith("found · contradicted")
    assert comment.weight == round(comment.confidence * 0.25, 4)
    # the checker never saw it (code had already contradicted it) and the meta sees why
    (checker,) = gateway.calls_for(role="checker")
    assert "4.7 points" not in checker.text
    (meta,) = gateway.calls_for(role="meta")
    assert "found · contradicted (code:" in meta.text and "verified" in meta.text


async def test_checker_verdicts_are_kept_with_the_model_name(paper: Paper) -> None:
    doubtful = {n: "not_enough" for n in range(1, 20)}
    report, _ = await _run(paper, checker=[checker_answers(doubtful)])
    judged = [c for c in report.comments
              if c.evidence and c.evidence[0]["support"]["by"].startswith("checker:")]
    assert judged and all(c.support == "not_enough" and not c.verified for c in judged)
    assert all(c.found for c in judged)  # found stays found: the verdicts are not merged
    assert report.verification.supported == 0 and report.verification.share_found == 1.0


async def test_meta_sees_reference_flag_and_support(paper: Paper) -> None:
    _, gateway = await _run(paper)
    (meta,) = gateway.calls_for(role="meta")
    assert "cites a work NOT in the bibliography" in meta.text
    assert "p. 1, l. 24: verified" in meta.text


async def test_recommendation_contradicting_every_score_is_flagged(paper: Paper) -> None:
    low = {role: [{**answer, "score": 1}] for role, answer in (
        ("contribution_reviewer", script()["contribution_reviewer"][0]),
        ("methodology_reviewer", script()["methodology_reviewer"][0]),
        ("experiment_reviewer", EXPERIMENT),
        ("reproducibility_reviewer", script()["reproducibility_reviewer"][0]))}
    report, _ = await _run(paper, meta=[{**META, "recommendation": "minor_revision"}], **low)
    (flag,) = report.flags
    assert flag.kind == "recommendation_contradicts_scores" and "minor revision" in flag.message
    assert "flag" in to_markdown(report) and "recommendation contradicts scores" in to_html(
        report)
    agreeing, _ = await _run(paper, meta=[{**META, "recommendation": "reject"}], **low)
    assert agreeing.flags == []


@pytest.mark.parametrize(("recommendation", "scores", "flagged"), [
    ("minor_revision", [1, 1, 1], True), ("minor_revision", [3, 3, 3], True),
    ("minor_revision", [3, 4, 1], True), ("minor_revision", [3, 5, 1], False),
    ("reject", [9, 9, 9], True), ("reject", [7, 8, 9], True), ("reject", [6, 9, 9], False),
    ("accept", [4, 2], True), ("accept", [5, 2], False), ("major_revision", [9, 10], True),
    ("major_revision", [7, 8], True), ("major_revision", [5, 7], False)])
def test_recommendation_rule_thresholds(recommendation: Any, scores: list[float],
                                        flagged: bool) -> None:
    named = {f"r{n}": float(s) for n, s in enumerate(scores)}
    assert (recommendation_flag(recommendation, named) is not None) == flagged
    assert set(THRESHOLDS) == {"accept", "minor_revision", "major_revision", "reject"}
    assert {limit for _, limit in THRESHOLDS.values()} == {LOW_SCORE, HIGH_SCORE}, "one rule"


async def test_no_recommendation_without_evidence(paper: Paper) -> None:
    """Comments citing lines the paper does not have: the panel's 'major revision' is not
    given, and every rendering says why."""
    lost = reviewer(6, ("The method is sound.", "9:900", ""),
                    ("The baselines are weak.", "9:901-902", "", []), "Table 1")
    roles = ("contribution_reviewer", "methodology_reviewer", "experiment_reviewer",
             "reproducibility_reviewer")
    report, _ = await _run(paper, **{role: [lost] for role in roles})
    assert report.metrics.traceability < MIN_TRACEABILITY
    assert report.recommendation is None and report.recommendation_confidence == 0.0
    assert report.recommendation_withheld.startswith("no recommendation: only ")
    assert "a verdict needs evidence" in report.recommendation_withheld
    assert report.flags == [], "no recommendation, so nothing to contradict"
    assert verdict_line(report) == report.recommendation_withheld
    assert report.recommendation_withheld in to_markdown(report)
    assert "major revision" not in to_markdown(report).split("## Scores")[0]
    assert "a verdict needs evidence" in to_html(report)


def test_the_shown_verdict_carries_its_flag() -> None:
    flagged = recommendation_flag("accept", {"r1": 1.0, "r2": 1.0})
    assert flagged is not None and "<= 4/10" in flagged.message
    report = ReviewReport(paper_id="p", title="t", recommendation="accept",
                          recommendation_confidence=0.5, flags=[flagged],
                          metrics=ReviewMetrics(issue_overlap=0, independence=1))
    line = verdict_line(report)
    assert line.startswith("accept (confidence 0.50); flag: recommendation 'accept' contradicts")


EXPERIMENT_ISSUE = ("Only three random seeds are used, so variance is unclear.", "1:21-22",
                    "with three random seeds", [])
