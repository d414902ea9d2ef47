"""The deep-reading graph with scripted models, real grounding and an in-memory checkpointer."""

from __future__ import annotations

from typing import Any

import pytest

from papermind.domain import Paper
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.deep_reading import NODES, ReadingContext, build_graph
from tests.workflows.deep_reading.conftest import (
    FABRICATED,
    ContextFactory,
    checker_answer,
    questions_answer,
    reader_answer,
)


async def _run(paper: Paper, ctx: ReadingContext, **kw: Any) -> RunResult:
    return await run_graph(build_graph(), {"paper_id": paper.id}, thread_id="job-1",
                           checkpointer=kw.pop("checkpointer", memory_checkpointer()),
                           context=ctx, **kw)


async def test_first_analysis_path(paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": [reader_answer()], "checker": [checker_answer("high")],
                            "questioner": [questions_answer(["M1", "D1"], ["R1"])]})
    result = await _run(paper, ctx)
    state = result.state
    assert result.nodes_run == ["context_loader", "deep_reader", "hallucination_checker",
                                "questioner"]
    assert [p.id for p in state["points"]] == ["M1", "M2", "D1", "E1", "R1"]
    assert all(p.verified and p.verdict == "supported" for p in state["points"])
    for point in state["points"]:
        for e in point.evidence:
            assert e.anchor is not None and e.anchor.paper_id == paper.id
            assert e.anchor.page == 1 and e.quote in e.matched_text
    assert state["credibility"] == "high" and state["rewrites"] == 0
    assert [q.builds_on for q in state["questions"]] == [["M1", "D1"], ["R1"]]
    assert [h.node for h in state["history"]] == list(NODES)
    checker_prompt = gw.calls_for(role="checker")[0].text
    assert 'EVIDENCE p. 1, l.' in checker_prompt and "[D1] POINT:" in checker_prompt
    derivation = state["points"][2]
    assert derivation.follows_from and derivation.symbols == ["lambda: weight of the load loss"]
    assert state["points"][3].baselines == ["dense baseline", "Switch Transformer"]


async def test_low_credibility_rewrites_once_then_continues(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({
        "reader": [reader_answer(method_text="Only the two lowest-scoring experts process a token."), reader_answer()],
        "checker": [checker_answer("low", unsupported=("M2",), feedback="M2 is not what the "
                                   "paper says"), checker_answer("medium")],
        "questioner": [questions_answer(["M2"])]})
    result = await _run(paper, ctx)
    assert result.nodes_run == ["context_loader", "deep_reader", "hallucination_checker",
                                "deep_reader", "hallucination_checker", "questioner"]
    state = result.state
    assert state["rewrites"] == 1 and state["credibility"] == "medium"
    assert [r.credibility for r in state["rounds"]] == ["low", "medium"]
    (revision,) = state["revisions"]
    assert revision.credibility_before == "low" and revision.kept == 4
    (change,) = revision.changes
    assert change.change == "revised" and change.before == "Only the two lowest-scoring experts process a token."
    assert len(gw.calls_for(role="reader")) == 2 and len(gw.calls_for(role="checker")) == 2


async def test_checker_feedback_is_in_the_rewrite_prompt(
        paper: Paper, make_context: ContextFactory) -> None:
    advice = "Point M2 overstates what the router does; quote the routing sentence."
    ctx, gw = make_context({
        "reader": [reader_answer(), reader_answer()],
        "checker": [checker_answer("low", unsupported=("M2",), feedback=advice),
                    checker_answer("high")],
        "questioner": [questions_answer(["M1"])]})
    await _run(paper, ctx)
    first, rewrite = gw.calls_for(role="reader")
    assert advice not in first.text and "previous analysis" not in first.text
    assert advice in rewrite.text
    assert "Points judged unsupported:\n- M2: reason for M2" in rewrite.text
    assert "M1 (method) [verified]" in rewrite.text


@pytest.mark.parametrize("max_rewrites", [0, 2])
async def test_rewrites_never_exceed_the_budget(
        paper: Paper, make_context: ContextFactory, max_rewrites: int) -> None:
    n = max_rewrites + 1
    ctx, gw = make_context({"reader": [reader_answer()] * (n + 2),
                            "checker": [checker_answer("low")] * (n + 2),
                            "questioner": [questions_answer(["M1"])]},
                           max_rewrites=max_rewrites)
    result = await _run(paper, ctx)
    assert result.state["rewrites"] == max_rewrites
    assert len(gw.calls_for(role="reader")) == n and len(gw.calls_for(role="checker")) == n
    assert result.nodes_run[-1] == "questioner" and result.state["credibility"] == "low"
    assert len(result.state["revisions"]) == max_rewrites


async def test_fabricated_quote_is_unverified_and_fed_back(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({
        "reader": [reader_answer(fabricate=True), reader_answer()],
        "checker": [checker_answer("low"), checker_answer("high")],
        "questioner": [questions_answer(["M1"], ["M2"])]})
    result = await _run(paper, ctx)
    first_round = result.state["revisions"][0]
    assert f'- M2: "{FABRICATED}"' in first_round.feedback
    rewrite_prompt = gw.calls_for(role="reader")[1].text
    assert f'quote [NOT FOUND]: "{FABRICATED}"' in rewrite_prompt
    assert f'- M2: "{FABRICATED}"' in rewrite_prompt
    checker_prompt = gw.calls_for(role="checker")[0].text
    assert "[M2] POINT" not in checker_prompt  # nothing located: code decides, not the model
    assert FABRICATED not in checker_prompt
    note = result.state["revisions"][0].changes[0]
    assert note.after_id == "M2" and note.note == "quotes replaced"
    final = {p.id: p for p in result.state["points"]}
    assert final["M2"].verified and result.state["rounds"][0].verified_points == 4


async def test_fabricated_quote_without_rewrite_stays_marked(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, _ = make_context({"reader": [reader_answer(fabricate=True)],
                           "checker": [checker_answer("high")],
                           "questioner": [questions_answer(["M1"], ["M2", "M1"])]})
    result = await _run(paper, ctx)
    points = {p.id: p for p in result.state["points"]}
    m2 = points["M2"]
    assert not m2.verified and m2.verdict == "unsupported"
    assert m2.evidence[0].anchor is None and not m2.evidence[0].verified
    # the model said high, but grounding caps it: a quote does not exist
    assert result.state["credibility"] == "medium"
    assert any("capped from high to medium" in n for n in result.state["rounds"][0].notes)
    assert [q.builds_on for q in result.state["questions"]] == [["M1"]]
    (dropped,) = result.state["dropped_questions"]
    assert "unverified point(s) M2" in dropped.reason


async def test_questioner_sees_verified_points_only(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": [reader_answer(fabricate=True)],
                            "checker": [checker_answer("medium", unsupported=("R1",))],
                            "questioner": [questions_answer(["D1"], ["X9"], [])]})
    result = await _run(paper, ctx)
    prompt = gw.calls_for(role="questioner")[0].text
    assert "M1 (method)" in prompt and "D1 (derivation)" in prompt
    assert "M2 (" not in prompt and "R1 (" not in prompt
    reasons = [d.reason for d in result.state["dropped_questions"]]
    assert reasons == ["cites unknown point id(s) X9", "does not say which points it builds on"]


async def test_unreadable_credibility_is_medium_with_a_warning(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, _ = make_context({"reader": [reader_answer()],
                           "checker": [checker_answer("quite good, maybe high or low")],
                           "questioner": [questions_answer(["M1"])]})
    result = await _run(paper, ctx)
    assert result.state["credibility"] == "medium"
    assert any("unreadable: medium assumed" in w for w in result.state["warnings"])


async def test_invalid_reader_output_gives_an_empty_analysis_not_a_crash(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": ["not json"] * 6, "checker": [], "questioner": []},
                           max_rewrites=1)
    result = await _run(paper, ctx)
    assert result.status == "completed" and result.state["points"] == []
    assert result.state["credibility"] == "low" and result.state["questions"] == []
    assert any("no valid analysis" in w for w in result.state["warnings"])
    assert gw.calls_for(role="checker") == []


@pytest.mark.parametrize("node", NODES)
async def test_resume_after_interrupt_does_not_recall_completed_nodes(
        paper: Paper, make_context: ContextFactory, node: str) -> None:
    ctx, gw = make_context({"reader": [reader_answer(), reader_answer()],
                            "checker": [checker_answer("low"), checker_answer("high")],
                            "questioner": [questions_answer(["M1"])]})
    saver = memory_checkpointer()
    first = await _run(paper, ctx, checkpointer=saver, interrupt_before=[node])
    assert first.status == "interrupted"
    before = {r: len(gw.calls_for(role=r)) for r in ("reader", "checker", "questioner")}
    second = await _run(paper, ctx, checkpointer=saver)
    assert second.status == "completed"
    assert first.nodes_run + second.nodes_run == [
        "context_loader", "deep_reader", "hallucination_checker", "deep_reader",
        "hallucination_checker", "questioner"]
    assert second.nodes_run[0] == node
    calls = {r: len(gw.calls_for(role=r)) for r in ("reader", "checker", "questioner")}
    assert calls == {"reader": 2, "checker": 2, "questioner": 1}
    assert sum(before.values()) < 5 and gw.model.remaining() == {}
    assert [h.node for h in second.state["history"]] == first.nodes_run + second.nodes_run
