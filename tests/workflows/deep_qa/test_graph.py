"""Deep QA graph with the scripted fake model, a keyword retriever and real grounding."""

from __future__ import annotations

from typing import Any

from papermind.domain import SearchHit
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.deep_qa.context import CatalogEntry
from papermind.workflows.deep_qa.graph import build_graph
from tests.workflows.deep_qa.fakes import (
    OFFENSIVE,
    OFFENSIVE_LATER,
    KeywordRetriever,
    Library,
    context,
    judge,
    make_paper,
    or_judge,
)

SUFFICIENT = {"sufficient": True, "missing": "", "next_query": ""}
NO_TERMS = {"related_terms": []}


async def run(gateway: Any, library: Library, question: str, *, thread: str = "t",
              checkpointer: Any = None, retriever: Any = None, **limits: Any) -> RunResult:
    ctx = context(gateway, library, retriever=retriever, **limits)
    return await run_graph(build_graph(), {"question": question}, thread_id=thread,
                           checkpointer=checkpointer or memory_checkpointer(), context=ctx)


def one_task(question: str, **extra: Any) -> dict[str, Any]:
    return {"tasks": [{"id": "t1", "question": question, "tool": "library_search", **extra}]}


def picked(result: RunResult) -> list[str]:
    return [s.task_id for s in result.state["history"] if s.node == "pick_task" and s.task_id]


async def test_dependent_tasks_run_in_dependency_order() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    plan = {"tasks": [
        {"id": "compare", "question": "Which has more tweets?", "tool": "calculator",
         "depends_on": ["size", "size2"], "expression": "14100 > 4640"},
        {"id": "size2", "question": "How many tweets in level B?", "depends_on": ["size"]},
        {"id": "size", "question": "How many tweets does OLID contain?"},
    ]}
    gateway = fake_gateway({
        "planner": [plan, NO_TERMS, NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}, {"quotes": []}],
        "checker": [SUFFICIENT, SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID contains 14,100 tweets.", "cites": ["E1"]}]}],
    })
    result = await run(gateway, library, "How big is OLID, and is level A larger than B?")
    order = picked(result)
    plan_ids = {t.question: t.id for t in result.state["plan"]}
    assert order == [plan_ids["How many tweets does OLID contain?"],
                     plan_ids["How many tweets in level B?"], plan_ids["Which has more tweets?"]]
    calc = [e for e in result.state["evidence"] if e.kind == "computed"]
    assert calc and calc[0].value == "True"
    assert result.state["status"] == "answered"
    assert result.state["sentences"][0].verified


class FreshRetriever:
    """Returns two never-seen lines of the paper on every call (so novelty never stops)."""

    def __init__(self, library: Library) -> None:
        self.paper = next(iter(library.papers.values()))
        self.calls: list[dict[str, Any]] = []

    def search(self, query: str, **kw: Any) -> list[SearchHit]:
        self.calls.append({"query": query, **kw})
        lines = list(self.paper.lines())
        start = 2 * (len(self.calls) - 1)
        return [SearchHit(paper_id=self.paper.id, chunk_id=f"c{line.page}:{line.n}", score=1.0,
                          text=line.text, year=self.paper.year)
                for line in lines[start:start + 2]]


def many_lines_paper() -> Any:
    return make_paper("long", [f"In run {i} the CNN model reached a macro F1 of 0.{70 + i}."
                               for i in range(20)])


INSUFFICIENT = {"sufficient": False, "missing": "the final score", "next_query": "final F1 score"}


async def test_sufficiency_loop_stops_at_the_step_bound() -> None:
    library = Library()
    library.add(many_lines_paper())
    retriever = FreshRetriever(library)
    gateway = fake_gateway({"planner": [one_task("What F1 does the CNN reach?"), NO_TERMS],
                            "distiller": [{"quotes": []}] * 5, "checker": [INSUFFICIENT] * 5,
                            "answerer": [{"sentences": [], "insufficient": True}]})
    ctx = context(gateway, library, retriever=retriever, max_steps=3, max_retrievals_per_task=10)
    result = await run_graph(build_graph(), {"question": "What F1 does the CNN reach?"},
                             thread_id="t", checkpointer=memory_checkpointer(), context=ctx)
    assert len(retriever.calls) == 3
    outcome = result.state["outcomes"]["t1"]
    assert outcome.retrievals == 3 and "step bound" in outcome.stop_reason
    rounds = [s for s in result.state["strategies"] if s.task_id == "t1"]
    assert [s.round for s in rounds] == [1, 2, 3]
    assert rounds[1].query == "final F1 score" and rounds[1].mode != rounds[0].mode
    assert result.state["status"] == "insufficient_evidence"


async def test_novelty_stop_when_retrieval_brings_nothing_new() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    gateway = fake_gateway({"planner": [one_task("How many tweets does OLID contain?"),
                                        NO_TERMS],
                            "distiller": [{"quotes": []}] * 3,
                            "checker": [{**INSUFFICIENT, "next_query": "OLID tweets count"},
                                        or_judge({"pairs": []}), judge()],
                            "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.",
                                                         "cites": ["E1"]}]}]})
    retriever = KeywordRetriever(library)
    result = await run(gateway, library, "How many tweets does OLID contain?",
                       retriever=retriever, max_retrievals_per_task=5)
    assert len(retriever.calls) == 2
    outcome = result.state["outcomes"]["t1"]
    assert outcome.stop_reason.startswith("novelty")
    assert len(gateway.calls_for(node="assess_sufficiency")) == 1
    assert result.state["status"] == "answered"


async def test_strategy_choice_recorded_per_task() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    plan = {"tasks": [
        {"id": "a", "question": "What does Table 2 report for the CNN?"},
        {"id": "b", "question": "Why does offensive language detection matter?",
         "mode_hint": "bm25"},
        {"id": "c", "question": "Which classifiers are compared?", "mode_hint": "dense"},
    ]}
    gateway = fake_gateway({"planner": [plan, NO_TERMS, NO_TERMS, NO_TERMS],
                            "distiller": [{"quotes": []}] * 3, "checker": [SUFFICIENT] * 3
                            + [{"pairs": []}],
                            "answerer": [{"sentences": [], "insufficient": True}]})
    retriever = KeywordRetriever(library)
    result = await run(gateway, library, "Tell me about OLID classifiers", retriever=retriever,
                       max_replans=0)
    first = {s.task_id: s for s in result.state["strategies"] if s.round == 1}
    assert first["t1"].mode == "bm25" and "table" in first["t1"].reason
    assert first["t2"].mode == "dense" and "conceptual" in first["t2"].reason
    assert first["t3"].mode == "dense" and "planner's hint" in first["t3"].reason
    assert [c["mode"] for c in retriever.calls][:3] == ["bm25", "dense", "dense"]


async def test_contradiction_is_surfaced_with_both_anchors_and_years() -> None:
    library = Library()
    old = library.add(make_paper("olid", OFFENSIVE, year=2019))
    new = library.add(make_paper("olid-revisited", OFFENSIVE_LATER, year=2022))
    question = "Which model achieves the best macro F1 on offensive language detection?"
    gateway = fake_gateway({
        "planner": [one_task(question), NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[3]},
                                  {"passage": 2, "quote": OFFENSIVE_LATER[1]}]}],
        "checker": [SUFFICIENT, lambda messages: _pair_for(messages), judge()],
        "answerer": [{"sentences": [{"text": "The CNN is best on OLID.", "cites": ["E1"]}]}],
    })
    result = await run(gateway, library, question)
    [c] = result.state["contradictions"]
    by_id = {e.id: e for e in result.state["evidence"]}
    assert {by_id[c.first].paper_id, by_id[c.second].paper_id} == {old.id, new.id}
    assert c.first_anchor is not None and c.second_anchor is not None
    assert {c.first_year, c.second_year} == {2019, 2022}
    stated = [s for s in result.state["sentences"] if set(s.cites) == {c.first, c.second}]
    assert stated and "disagree" in stated[0].text


def _pair_for(messages: list[Any]) -> dict[str, Any]:
    """Name the two evidence ids whose quotes mention 'best' (read from the prompt)."""
    text = "\n".join(str(m.content) for m in messages)
    ids = [line.split("]")[0].strip("[") for line in text.splitlines()
           if line.startswith("[E") and "best" in line]
    return {"pairs": [{"first": ids[0], "second": ids[1], "note": "best model differs"}]}


async def test_citation_to_text_not_in_the_paper_is_unverified() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    fabricated = "The CNN reaches a macro F1 of 0.95 on every level of the annotation."
    gateway = fake_gateway({
        "planner": [one_task("What F1 does the CNN reach?"), NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": fabricated}]}],
        "checker": [SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "The CNN reaches 0.95 F1.", "cites": ["E1"]},
                                    {"text": "It was trained on GPUs.", "cites": ["E99"]}]}],
    })
    result = await run(gateway, library, "What F1 does the CNN reach?")
    e1 = result.state["evidence"][0]
    assert e1.evidence.quote == fabricated and not e1.evidence.verified
    assert result.state["sentences"] == []
    first, second = result.state["dropped"]
    assert not first.verified and not first.citations[0].evidence.verified
    assert first.citations[0].evidence.anchor is None
    assert not second.verified and "not in the evidence table" in \
        second.citations[0].evidence.reasons[0]
    # nothing the model wrote holds up: insufficient evidence, the evidence found kept
    assert result.state["status"] == "insufficient_evidence"
    assert any(e.evidence.found for e in result.state["evidence"])
    assert any("2 answer sentence(s) dropped" in n for n in result.state["notes"])
    answer_prompt = gateway.calls_for(node="answer")[0].text
    assert fabricated not in answer_prompt  # unverified quotes are not offered to the answerer


async def test_resume_from_a_checkpoint_mid_loop() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    gateway = fake_gateway({
        "planner": [one_task("How many tweets does OLID contain?"), NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
        "checker": [SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.", "cites": ["E1"]}]}],
    })
    saver = memory_checkpointer()
    ctx = context(gateway, library)
    first = await run_graph(build_graph(), {"question": "How big is OLID?"}, thread_id="job",
                            checkpointer=saver, context=ctx,
                            interrupt_before=["assess_sufficiency"])
    assert first.status == "interrupted" and first.nodes_run[-1] == "distill"
    second = await run_graph(build_graph(), {"question": "ignored"}, thread_id="job",
                             checkpointer=saver, context=ctx)
    assert second.status == "completed"
    assert second.nodes_run[0] == "assess_sufficiency"
    assert "plan" not in second.nodes_run and "distill" not in second.nodes_run
    assert len(gateway.calls_for(node="plan")) == 1
    assert second.state["status"] == "answered" and second.state["sentences"][0].verified


async def test_web_search_disabled_offline_and_year_filter_applied() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE, year=2021))
    question = "What datasets of tweets were published since 2020?"
    gateway = fake_gateway({
        "planner": [one_task(question, tool="web_search"), NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[0]}]}],
        "checker": [SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID, a dataset of English tweets.",
                                     "cites": ["E1"]}]}]})
    retriever = KeywordRetriever(library)
    result = await run(gateway, library, question, retriever=retriever)
    strategy = result.state["strategies"][0]
    assert strategy.tool == "library_search" and "disabled" in strategy.note
    assert any("web search is disabled" in n for n in result.state["notes"])
    assert retriever.calls[0]["year_min"] == 2020 and strategy.year_min == 2020


async def test_replan_when_a_task_finds_nothing() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    gateway = fake_gateway({
        "planner": [one_task("zzz qqq?"), NO_TERMS,
                    {"tasks": [{"id": "x", "question": "How many tweets in OLID?"}]}, NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
        "checker": [SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.", "cites": ["E1"]}]}]})
    result = await run(gateway, library, "How big is OLID?")
    assert [t.id for t in result.state["plan"]] == ["t1", "t2"]
    assert result.state["outcomes"]["t1"].state == "empty"
    assert result.state["outcomes"]["t2"].state == "done"
    assert picked(result) == ["t1", "t2"]


async def test_token_budget_stops_the_loop_before_the_answer() -> None:
    library = Library()
    library.add(many_lines_paper())
    gateway = fake_gateway({"planner": [one_task("What F1 does the CNN reach?"), NO_TERMS],
                            "distiller": [{"quotes": []}] * 5, "checker": [INSUFFICIENT] * 5
                            + [{"pairs": []}],
                            "answerer": [{"sentences": [], "insufficient": True}]})
    retriever = FreshRetriever(library)
    result = await run(gateway, library, "What F1 does the CNN reach?", retriever=retriever,
                       token_budget=900, max_retrievals_per_task=10, max_steps=10)
    reason = result.state["outcomes"]["t1"].stop_reason
    assert "budget" in reason
    assert len(retriever.calls) < 10


async def test_a_model_that_never_gives_valid_output_degrades_not_crashes() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    gateway = fake_gateway({"*": ["I think the answer is yes."] * 60}, schema_retries=0)
    result = await run(gateway, library, "How many tweets does the OLID dataset contain?")
    state = result.state
    assert [t.question for t in state["plan"]] == [
        "How many tweets does the OLID dataset contain?"]
    assert any("deterministic fallback" in n for n in state["notes"])
    assert state["status"] == "extractive"
    assert state["sentences"] and all(s.verified for s in state["sentences"])
    assert any("14,100" in s.text for s in state["sentences"])


def test_evidence_ids_from_loose_model_output() -> None:
    from papermind.workflows.deep_qa.nodes.answering import evidence_ids

    assert evidence_ids(["E1, E2", "[e2]", "E 10"]) == ["E1", "E2", "E10"]
    assert evidence_ids(["source one"]) == ["source one"]


async def test_one_paper_search_named_by_the_planner() -> None:
    library = Library()
    olid = library.add(make_paper("olid", OFFENSIVE, year=2019))
    later = library.add(make_paper("olid-revisited", OFFENSIVE_LATER, year=2022))
    question = "Which model is best in the revisited OLID paper?"
    gateway = fake_gateway({
        "planner": [one_task(question, tool="paper_search", paper_ids=[later.id[:8]]), NO_TERMS],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE_LATER[1]}]}],
        "checker": [SUFFICIENT, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "The BiLSTM is best.", "cites": ["E1"]}]}]})
    retriever = KeywordRetriever(library)
    catalog = [CatalogEntry(p.id, p.title, p.year) for p in (olid, later)]
    result = await run(gateway, library, question, retriever=retriever, catalog=catalog)
    plan_prompt = gateway.calls_for(node="plan")[0].text
    assert f"[{later.id[:8]}] olid-revisited (2022)" in plan_prompt
    assert result.state["strategies"][0].paper_ids == [later.id]
    assert retriever.calls[0]["paper_ids"] == [later.id]
    assert {e.paper_id for e in result.state["evidence"]} == {later.id}


async def test_unverifiable_answer_without_any_verified_quote_is_insufficient() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    gateway = fake_gateway({
        "planner": [one_task("zzz?"), NO_TERMS],
        "answerer": [{"sentences": [{"text": "It is 42.", "cites": ["E1"]}]}]})
    retriever = KeywordRetriever(library)
    result = await run(gateway, library, "What is the answer?", retriever=retriever,
                       max_replans=0)
    assert result.state["evidence"] == []
    assert result.state["status"] == "insufficient_evidence"
    assert gateway.calls_for(node="answer") == []
