"""The deep-reading graph with scripted models, real grounding and an in-memory checkpointer."""

from __future__ import annotations

from typing import Any, cast

import pytest

from papermind.domain import Paper
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.deep_reading import NODES, ReadingContext, build_graph
from tests.support.reading_script import (
    FABRICATED,
    MISSING_LINES,
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
    assert all(p.verdict_by == "checker:scripted" for p in state["points"])
    for point in state["points"]:
        for e in point.evidence:
            assert e.anchor is not None and e.anchor.paper_id == paper.id
            assert e.method == "lines" and e.quote in e.matched_text and e.verified
    assert state["credibility"] == "high" and state["rewrites"] == 0
    assert [q.builds_on for q in state["questions"]] == [["M1", "D1"], ["R1"]]
    assert [h.node for h in state["history"]] == list(NODES)
    reader_prompt = gw.calls_for(role="reader")[0].text
    assert "[p.1]" in reader_prompt and "\n15 The router computes a score" in reader_prompt
    checker_prompt = gw.calls_for(role="checker")[0].text
    assert 'CITED p. 1, l. 15: "The router computes' in checker_prompt
    assert "[C3] CLAIM: The total loss is the task loss" in checker_prompt
    derivation = state["points"][2]
    assert derivation.follows_from and derivation.symbols == ["lambda: weight of the load loss"]
    assert state["points"][3].baselines == ["dense baseline", "Switch Transformer"]


async def test_found_is_not_verified_credibility_comes_from_support(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": [reader_answer()], "checker": [checker_answer("low")],
                            "questioner": []}, max_rewrites=0)
    result = await _run(paper, ctx)
    points = result.state["points"]
    assert all(p.found for p in points) and not any(p.verified for p in points)
    assert {p.verdict for p in points} == {"not_enough"}
    assert result.state["credibility"] == "low"
    (round_,) = result.state["rounds"]
    assert (round_.found_quotes, round_.verified_quotes, round_.verified_points) == (5, 0, 0)
    assert result.state["questions"] == [] and gw.calls_for(role="questioner") == []


async def test_a_contradicted_point_is_named_in_the_rewrite_feedback(
        paper: Paper, make_context: ContextFactory) -> None:
    wrong = "The two lowest-scoring experts process a token."
    ctx, gw = make_context({
        "reader": [reader_answer(method_text=wrong), reader_answer()],
        "checker": [checker_answer(unsupported=("M1", "M2", "D1"), verdict="contradicted"),
                    checker_answer("high")],
        "questioner": [questions_answer(["M2"])]})
    result = await _run(paper, ctx)
    assert result.nodes_run == ["context_loader", "deep_reader", "hallucination_checker",
                                "deep_reader", "hallucination_checker", "questioner"]
    state = result.state
    assert [r.credibility for r in state["rounds"]] == ["low", "high"]
    (revision,) = state["revisions"]
    assert revision.credibility_before == "low" and revision.kept == 4
    (change,) = revision.changes
    assert change.change == "revised" and change.before == wrong
    rewrite = gw.calls_for(role="reader")[1].text
    assert "CONTRADICTED by the text of their cited lines" in rewrite
    assert '- M2 cites 1:15 "The top two experts receive the token.": reason for claim 2 ' \
           "(checker:scripted)" in rewrite
    assert "M2 (method) [NOT VERIFIED: contradicted]" in rewrite
    assert "E1 (experiment) [verified]" in rewrite
    assert state["points"][1].verified and state["credibility"] == "high"


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


async def test_unknown_line_ids_are_not_found_never_judged_and_fed_back(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({
        "reader": [reader_answer(fabricate=True), reader_answer()],
        "checker": [checker_answer("low"), checker_answer("high")],
        "questioner": [questions_answer(["M1"], ["M2"])]})
    result = await _run(paper, ctx)
    first_round = result.state["revisions"][0]
    assert f'- M2 cites {MISSING_LINES} "{FABRICATED}": the paper has no line 9:99' in \
        first_round.feedback
    rewrite_prompt = gw.calls_for(role="reader")[1].text
    assert f'lines {MISSING_LINES} "{FABRICATED}" [NOT FOUND (the paper has no line 9:99' \
        in rewrite_prompt
    checker_prompt = gw.calls_for(role="checker")[0].text
    assert "experts process a token" not in checker_prompt  # not found: code decides
    assert FABRICATED not in checker_prompt
    note = result.state["revisions"][0].changes[0]
    assert note.after_id == "M2" and note.note == "citations replaced"
    final = {p.id: p for p in result.state["points"]}
    assert final["M2"].verified and result.state["rounds"][1].verified_points == 5


async def test_unknown_line_ids_without_rewrite_stay_marked(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, _ = make_context({"reader": [reader_answer(fabricate=True)],
                           "checker": [checker_answer("high")],
                           "questioner": [questions_answer(["M1"], ["M2", "M1"])]})
    result = await _run(paper, ctx)
    points = {p.id: p for p in result.state["points"]}
    m2 = points["M2"]
    assert not m2.verified and m2.verdict == "not_found" and m2.verdict_by == "code"
    assert m2.evidence[0].anchor is None and not m2.evidence[0].verified
    assert result.state["credibility"] == "medium"  # 4 of 5 verified
    assert [q.builds_on for q in result.state["questions"]] == [["M1"]]
    (dropped,) = result.state["dropped_questions"]
    assert "unverified point(s) M2" in dropped.reason


async def test_questioner_sees_verified_points_only(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": [reader_answer(fabricate=True)],
                            "checker": [checker_answer(unsupported=("R1",))],
                            "questioner": [questions_answer(["D1"], ["X9"], [])]})
    result = await _run(paper, ctx)
    prompt = gw.calls_for(role="questioner")[0].text
    assert "M1 (method)" in prompt and "D1 (derivation)" in prompt
    assert "M2 (" not in prompt and "R1 (" not in prompt  # not found / not supported
    reasons = [d.reason for d in result.state["dropped_questions"]]
    assert reasons == ["cites unknown id(s) X9", "does not say what it builds on"]


async def test_invalid_checker_output_leaves_points_unchecked_and_credibility_low(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, _ = make_context({"reader": [reader_answer()], "checker": ["not json"] * 3,
                           "questioner": []}, max_rewrites=0)
    result = await _run(paper, ctx)
    points = result.state["points"]
    assert all(p.found and p.verdict == "unchecked" and not p.verified for p in points)
    assert result.state["credibility"] == "low"
    assert any("model gave no valid output" in w and "claims stay unchecked" in w
               for w in result.state["warnings"])


async def test_a_paper_longer_than_the_window_is_read_section_by_section(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": [reader_answer()] * 8,
                            "checker": [checker_answer("high")],
                            "questioner": [questions_answer(["M1"])]}, context_budget=120,
                           max_rewrites=0)
    result = await _run(paper, ctx)
    info = result.state["context_info"]
    assert info.method == "sections" and not info.condensed
    prompts = [c.text.split("_BEGIN", 1)[1] for c in gw.calls_for(role="reader")]
    assert len(prompts) >= 2  # one call per part
    seen = "\n".join(prompts)
    for sentence in ("The router computes a score", "We evaluate on GLUE and SQuAD",
                     "Large transformers are expensive"):
        assert sentence in seen  # every section reached the reader
    assert all(s.tokens_kept == s.tokens_full for s in info.sections if not s.omitted)
    texts = [p.text for p in result.state["points"]]
    assert len(texts) == len(set(texts))  # the same point from two parts is kept once
    assert all(e.matched_text for p in result.state["points"] for e in p.evidence if e.found)


async def test_invalid_reader_output_gives_an_empty_analysis_not_a_crash(
        paper: Paper, make_context: ContextFactory) -> None:
    ctx, gw = make_context({"reader": ["not json"] * 6, "checker": [], "questioner": []},
                           max_rewrites=1)
    result = await _run(paper, ctx)
    assert result.status == "completed" and result.state["points"] == []
    assert result.state["credibility"] == "low" and result.state["questions"] == []
    assert any("the reader model gave no valid output" in w and w.endswith("no points")
               for w in result.state["warnings"])
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


def test_a_rewrite_runs_only_for_what_it_can_change() -> None:
    from types import SimpleNamespace

    from papermind.workflows.deep_reading.nodes import route_after_check

    verified, doubtful = SimpleNamespace(verified=True), SimpleNamespace(verified=False)
    low: dict[str, Any] = {"rewrites": 0, "max_rewrites": 1, "credibility": "low"}
    def route(**state: Any) -> str:
        return route_after_check(cast(Any, {**low, **state}))

    assert route(points=[verified, doubtful]) == "deep_reader"
    assert route(points=[verified, verified]) == "questioner", "all verified: nothing to rewrite"
    assert route(rewrites=1, points=[doubtful]) == "questioner"
