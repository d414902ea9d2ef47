"""Message protocol: allowed fields per sender, explicit score changes, bounded rounds."""

from __future__ import annotations

import pytest

from papermind.domain import Paper
from papermind.domain.review import ReviewMessage
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.messages import (
    ALLOWED_FIELDS,
    ProtocolViolation,
    deliver,
    merge_messages,
)
from papermind.workflows.review.report import build_report
from tests.support.review_script import (
    META,
    METHODOLOGY,
    checker_answers,
    run_review,
    script,
)


def _meta(**changes: object) -> dict[str, object]:
    return {**META, **changes}


async def test_score_change_without_reason_is_rejected(paper: Paper) -> None:
    bad = _meta(score_changes=[{"reviewer": "methodology_reviewer", "from_score": 6,
                                "to_score": 3, "reason": ""}])
    gateway = fake_gateway(script(meta=[bad, bad]))
    result = await run_review(gateway, paper)
    first, second = gateway.calls_for(role="meta")
    assert "has no reason" in second.text and "has no reason" not in first.text
    report = build_report(result.state)
    (change,) = report.score_changes
    assert not change.accepted and "no reason" in (change.rejection or "")
    (score,) = [s for s in report.scores if s.reviewer == "methodology_reviewer"]
    assert score.original == score.final == 6 and score.change is None


async def test_score_change_with_reason_is_explicit_and_original_frozen(paper: Paper) -> None:
    bad = _meta(score_changes=[{"reviewer": "methodology_reviewer", "from_score": 6,
                                "to_score": 3, "reason": ""}])
    good = _meta(score_changes=[{"reviewer": "methodology_reviewer", "from_score": 6,
                                 "to_score": 4, "reason": "the attack on the temperature stands"}])
    result = await run_review(fake_gateway(script(meta=[bad, good])), paper, max_rounds=1)
    report = build_report(result.state)
    (score,) = [s for s in report.scores if s.reviewer == "methodology_reviewer"]
    assert (score.original, score.final) == (6, 4)
    assert score.change == "from 6 to 4 because the attack on the temperature stands"
    assert result.state["original_scores"]["methodology_reviewer"] == 6


async def test_change_must_start_from_the_frozen_score(paper: Paper) -> None:
    wrong = _meta(score_changes=[{"reviewer": "experiment_reviewer", "from_score": 8,
                                  "to_score": 4, "reason": "weak baselines"}])
    gateway = fake_gateway(script(meta=[wrong, wrong]))
    report = build_report((await run_review(gateway, paper)).state)
    re_asked = gateway.calls_for(role="meta")[1].text
    fenced = re_asked.split("<<<PROBLEMS_BEGIN", 1)[1].split("<<<PROBLEMS_END", 1)[0]
    assert "current score 5" in fenced  # what quotes the model's answer is fenced as data
    assert [c.accepted for c in report.score_changes] == [False]


async def test_disallowed_field_is_re_asked_then_accepted(paper: Paper) -> None:
    sneaky = {**METHODOLOGY, "comments": [{**METHODOLOGY["comments"][0], "claim": "C1"}]}
    gateway = fake_gateway(script(methodology_reviewer=[sneaky, METHODOLOGY]))
    result = await run_review(gateway, paper)
    first, second = gateway.calls_for(role="methodology_reviewer")
    assert "rejected" in second.text and "claim" in second.text and "rejected" not in first.text
    assert result.status == "completed"
    assert not any(m.reply_to for m in result.state["messages"]
                   if m.sender == "methodology_reviewer")


async def test_devil_may_not_cite_works_or_send_strengths(paper: Paper) -> None:
    cites = {"attacks": [{"kind": "attack", "claim": "C1", "content": "x", "references": ["A"]}]}
    praise = {"attacks": [{"kind": "strength", "claim": "C1", "content": "nice"}]}
    gateway = fake_gateway(script(devil=[cites, praise, praise]), schema_retries=2)
    result = await run_review(gateway, paper, max_rounds=1)
    assert len(gateway.calls_for(role="devil")) == 3
    assert result.status == "completed"  # the invalid-output policy: the step degrades
    assert not any(m.sender == "devil" for m in result.state["messages"])
    (warning,) = result.state["warnings"]
    assert warning.startswith("devil: the devil model gave no valid output")


def test_allowed_fields_follow_the_wire_schemas() -> None:
    assert "claim" not in ALLOWED_FIELDS["methodology_reviewer"]
    assert "references" not in ALLOWED_FIELDS["devil"] and "claim" in ALLOWED_FIELDS["devil"]


@pytest.mark.parametrize("max_rounds", [1, 2, 3])
async def test_second_round_is_bounded(paper: Paper, max_rounds: int) -> None:
    polar = {**METHODOLOGY, "score": 1}  # spread 7 - 1 = 6 > threshold 2, never settled
    gateway = fake_gateway(script(methodology_reviewer=[polar], devil=[], meta=[],
                                  **{"*": []}))
    gateway.model.queue("devil", *[script()["devil"][0]] * max_rounds)
    gateway.model.queue("meta", *[META] * max_rounds)
    gateway.model.queue("checker", *[checker_answers()] * max_rounds)  # new attacks each round
    result = await run_review(gateway, paper, max_rounds=max_rounds, second_round_threshold=2.0)
    assert result.status == "completed"
    assert len(gateway.calls_for(role="devil")) == max_rounds
    assert len(gateway.calls_for(role="meta")) == max_rounds
    decisions = result.state["decisions"]
    assert [d.next_round for d in decisions] == [True] * (max_rounds - 1) + [False]
    assert decisions[-1].unresolved == 6
    assert build_report(result.state).rounds == max_rounds


async def test_no_second_round_when_spread_is_small(paper: Paper) -> None:
    gateway = fake_gateway(script())  # scores 7, 6, 5: spread 2 is not above 2
    result = await run_review(gateway, paper, max_rounds=3)
    assert len(gateway.calls_for(role="devil")) == 1
    assert result.state["decisions"][-1].next_round is False


def _msg(id_: str, **kw: object) -> ReviewMessage:
    fields: dict[str, object] = {"sender": "devil", "receiver": "meta", "kind": "attack",
                                 "content": "c", "confidence": 0.5, "reply_to": "x"}
    fields.update(kw)
    return ReviewMessage(id=id_, **fields)  # type: ignore[arg-type]


def test_reducer_dedupes_by_id() -> None:
    a, b = _msg("r1.devil.1"), _msg("r1.devil.2")
    merged = merge_messages([a], [a, b, b])
    assert [m.id for m in merged] == ["r1.devil.1", "r1.devil.2"]
    assert merge_messages(merged, [a]) == merged


def test_delivery_rejects_kinds_a_sender_may_not_send() -> None:
    with pytest.raises(ProtocolViolation, match="devil may not send 'strength'"):
        deliver([_msg("r1.devil.1", kind="strength")])
    with pytest.raises(ProtocolViolation, match="only a reviewer's summary carries a score"):
        deliver([_msg("r1.devil.1", score=3.0)])
    assert deliver([_msg("r1.devil.1")])


async def test_reviewers_contradicting_each_other_is_a_disagreement(paper: Paper) -> None:
    praise = {**METHODOLOGY, "comments": [
        {"kind": "strength", "target": "Table 1", "content": "Table 1 results are convincing.",
         "quote": "Zebraformer reaches 71.3 F1"}]}
    doubt = {**METHODOLOGY, "score": 5, "comments": [
        {"kind": "issue", "target": "Table 1", "content": "Table 1 lacks variance.",
         "quote": "Zebraformer reaches 71.3 F1"}]}
    gateway = fake_gateway(script(methodology_reviewer=[praise], experiment_reviewer=[doubt]))
    result = await run_review(gateway, paper)
    conflicts = [d for d in result.state["disagreements"] if d.kind == "reviewer_conflict"]
    assert [d.message_ids for d in conflicts] == [["r1.methodology_reviewer.1",
                                                   "r1.experiment_reviewer.1"]]
    assert conflicts[0].id in gateway.calls_for(role="meta")[0].text
