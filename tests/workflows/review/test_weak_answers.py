"""Weak answers (a tiny local model's) degrade to unverified items, never to crashes."""

from __future__ import annotations

from papermind.domain import Paper
from papermind.llm.testing import fake_gateway
from papermind.workflows.review import REVIEWERS
from papermind.workflows.review.report import build_report
from tests.support.review_script import run_review, script

WEAK_REVIEW = {"score": 42, "summary": "", "confidence": 95, "comments": [
    {"kind": "Weakness", "target": "Section ???", "content": "It is not good.",
     "quote": "the the the model is model", "references": ["[77]", ""]},
    {"kind": "strength", "content": "   "},
    {"kind": "strength", "target": "page 99 line 3", "content": "Good paper overall."}]}
WEAK_DEVIL = {"attacks": [{"claim": "X99", "content": "Maybe not.", "quote": ""},
                          {"content": "Could be luck.", "quote": "nothing like the excerpt"}]}
WEAK_META = {"arbitrations": [{"disagreement": "D7", "verdict": "claim_stands"}],
             "score_changes": [{"reviewer": "reviewer 2", "from_score": 3, "to_score": 4}],
             "recommendation": "reject", "confidence": 0.1,
             "revision_plan": [{"action": "Improve.", "addresses": ["M999", "everything"]},
                               {"action": ""}]}


async def test_weak_answers_complete_with_everything_marked(paper: Paper) -> None:
    weak = {spec.role: [WEAK_REVIEW] for spec in REVIEWERS}
    gateway = fake_gateway(script(**weak, devil=[WEAK_DEVIL], meta=[WEAK_META, WEAK_META],
                                  editor=[{"summary": ""}]))
    result = await run_review(gateway, paper, max_rounds=1)
    assert result.status == "completed"
    report = build_report(result.state)
    assert [s.original for s in report.scores] == [10.0] * len(REVIEWERS)  # clamped
    assert len(report.comments) == len(REVIEWERS) * 2 + 2  # blank comments skipped, rest kept
    assert not any(c.verified for c in report.comments)
    assert {u.message_id for u in report.unverified} == {c.message_id for c in report.comments}
    assert {u.text for u in report.unverified if u.kind == "reference"} == {"[77]"}
    attacks = [c for c in report.comments if c.kind == "attack"]
    assert all(a.reply_to for a in attacks)  # unknown claim ids fall back to position
    assert all(a.verdict == "unresolved" for a in report.arbitrations)
    assert [c.accepted for c in report.score_changes] == [False]
    assert [p.addresses for p in report.revision_plan] == [[]]
    assert report.metrics.traceability == 0.0
    assert report.recommendation is None, "the meta's 'reject' cites nothing found: withheld"
    assert "0 of 11 comments" in report.recommendation_withheld
