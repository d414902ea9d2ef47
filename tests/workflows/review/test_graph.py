"""The panel graph end to end on the scripted fake model."""

from __future__ import annotations

from langgraph.types import Command

from papermind.domain import Paper
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.workflows.review import REVIEWERS, build_graph
from papermind.workflows.review.report import build_report
from tests.support.review_script import context, run_review, script
from tests.workflows.review.paperkit import DISTINCT, flat

SEES = {
    "editor": {"abstract"},
    "contribution_reviewer": {"abstract", "introduction", "conclusion"},
    "methodology_reviewer": {"method", "equation", "figure"},
    "experiment_reviewer": {"experiments", "table", "ablation"},
}


async def test_full_run_produces_report(paper: Paper) -> None:
    gateway = fake_gateway(script())
    result = await run_review(gateway, paper)
    assert result.status == "completed"
    assert result.nodes_run[0] == "editor" and result.nodes_run[-1] == "human_signoff"
    report = build_report(result.state)
    assert report.recommendation == "major_revision"
    assert {s.reviewer: s.original for s in report.scores} == {
        "contribution_reviewer": 7, "methodology_reviewer": 6, "experiment_reviewer": 5,
        "reproducibility_reviewer": 6}
    assert len(report.comments) == 11  # 4 reviewers x 2 + 3 attacks
    assert all(c.found for c in report.comments)  # every cited span exists
    assert all(e["anchor"]["label"].startswith("p. 1, l. ") for c in report.comments
               for e in c.evidence)
    assert report.verification.share_found == 1.0
    assert gateway.model.remaining() == {}


async def test_each_role_sees_only_its_sections(paper: Paper) -> None:
    gateway = fake_gateway(script())
    await run_review(gateway, paper)
    for role, allowed in SEES.items():
        (call,) = gateway.calls_for(role=role)
        for part, phrase in DISTINCT.items():
            assert (phrase in flat(call.text)) == (part in allowed), (role, part)


async def test_reviewers_see_original_line_ids(paper: Paper) -> None:
    gateway = fake_gateway(script())
    await run_review(gateway, paper)
    (call,) = gateway.calls_for(role="contribution_reviewer")
    # the conclusion runs from p. 1, l. 30 to p. 2, l. 1; the lines between are left out
    assert "\n30 Zebraformer reads whole contracts" in call.text
    assert "\n[p.2]\n1 the code." in call.text
    assert "\n5 1 Introduction\n6 Prior sparse" in call.text and "\n...\n" in call.text


async def test_devil_sees_only_claims_and_attacks_each(paper: Paper) -> None:
    gateway = fake_gateway(script())
    result = await run_review(gateway, paper)
    (call,) = gateway.calls_for(role="devil")
    strengths = [m for m in result.state["messages"] if m.kind == "strength"]
    assert len(strengths) == 3
    for claim in strengths:  # each claim with the numbered lines it cited
        assert claim.content in call.text and claim.quote in flat(call.text)
    assert "\n   [p.1]\n   ...\n   7 than ten thousand tokens. Our first" in call.text
    for phrase in ("longer than ten thousand tokens", "six baselines", "softmax(W x / tau)",
                   "not tuned per dataset"):  # paper text and issues the devil must not see
        assert phrase not in call.text
    attacks = [m for m in result.state["messages"] if m.kind == "attack"]
    assert {a.reply_to for a in attacks} == {c.id for c in strengths}
    metrics = build_report(result.state).metrics
    assert metrics.attack_coverage == 1.0 and metrics.attacks_tied_share == 1.0


async def test_fabricated_quote_without_lines_is_not_found(paper: Paper) -> None:
    fake = dict(script()["methodology_reviewer"][0])
    fake["comments"] = [{"kind": "issue", "content": "The router ignores clause order.",
                         "quote": "the router discards the order of clauses before gating"}]
    result = await run_review(fake_gateway(script(methodology_reviewer=[fake])), paper)
    report = build_report(result.state)
    (comment,) = [c for c in report.comments if c.sender == "methodology_reviewer"]
    assert not comment.found and not comment.verified
    assert comment.evidence[0]["anchor"] is None and not comment.evidence[0]["found"]
    assert any(u.message_id == comment.message_id for u in report.unverified)


async def test_unknown_line_ids_are_not_found_with_the_reason(paper: Paper) -> None:
    fake = dict(script()["methodology_reviewer"][0])
    fake["comments"] = [{"kind": "issue", "content": "The router is underspecified.",
                         "lines": "7:300-302"}]
    result = await run_review(fake_gateway(script(methodology_reviewer=[fake])), paper)
    (comment,) = [c for c in build_report(result.state).comments
                  if c.sender == "methodology_reviewer"]
    assert not comment.found and "7:300" in " ".join(comment.evidence[0]["reasons"])


async def test_duplicate_delivery_keeps_one_copy(paper: Paper) -> None:
    saver = memory_checkpointer()
    result = await run_review(fake_gateway(script()), paper, checkpointer=saver)
    app = build_graph().compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "job-1"}}
    again = result.state["messages"][:4]
    await app.aupdate_state(config, {"messages": again})
    state = (await app.aget_state(config)).values
    ids = [m.id for m in state["messages"]]
    assert len(ids) == len(set(ids)) == len(result.state["messages"])


async def test_interrupted_after_reviewers_resumes_without_recalling_them(paper: Paper) -> None:
    gateway = fake_gateway(script())
    saver = memory_checkpointer()
    first = await run_review(gateway, paper, checkpointer=saver,
                             interrupt_before=["devil"])
    assert first.status == "interrupted"
    reviewer_calls = [c for c in gateway.calls if c.role and c.role.endswith("_reviewer")]
    assert len(reviewer_calls) == len(REVIEWERS)
    second = await run_review(gateway, paper, checkpointer=saver)
    assert second.status == "completed"
    assert second.nodes_run[0] == "devil"
    assert len([c for c in gateway.calls if c.role and c.role.endswith("_reviewer")]) == len(
        REVIEWERS)
    assert len(gateway.calls_for(role="editor")) == 1


async def test_minimal_panel_skips_devil(paper: Paper) -> None:
    gateway = fake_gateway(script())
    panel = ["editor", "contribution_reviewer", "experiment_reviewer", "meta"]
    result = await run_review(gateway, paper, panel=panel)
    assert result.status == "completed"
    assert "devil" not in result.nodes_run
    assert "methodology_reviewer" not in result.nodes_run
    assert not gateway.calls_for(role="devil") and not gateway.calls_for(role="methodology_reviewer")
    assert build_report(result.state).metrics.attacks == 0


async def test_signoff_interrupts_and_records_the_answer(paper: Paper) -> None:
    saver = memory_checkpointer()
    gateway = fake_gateway(script())
    first = await run_review(gateway, paper, checkpointer=saver, signoff=True)
    assert first.status == "interrupted"
    assert first.interrupt["recommendation"] == "major_revision"
    app = build_graph().compile(checkpointer=saver)
    await app.ainvoke(Command(resume={"approved": True, "note": "fine"}),
                      {"configurable": {"thread_id": "job-1"}},
                      context=context(gateway, signoff=True))
    state = (await app.aget_state({"configurable": {"thread_id": "job-1"}})).values
    assert state["signoff"]["approved"] is True and state["signoff"]["note"] == "fine"
    assert len(gateway.calls_for(role="meta")) == 1
