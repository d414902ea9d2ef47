"""Single-pass cited QA on a QASPER paper (real ingest and grounding, scripted model)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from papermind.domain import Paper
from papermind.ingest import parse_bytes
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.cited_qa.graph import build_graph
from papermind.workflows.deep_qa.render import to_markdown
from papermind.workflows.deep_qa.report import assemble_report, report_json
from tests.workflows.deep_qa.fakes import Library, context, judge

SIZE_SENTENCE = "The dataset contains 14,100 tweets and is released freely to the research community."


@pytest.fixture
def olid(shared_data: Path) -> Paper:
    path = shared_data / "qasper_subset" / "scientific_qa_dev.jsonl"
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    return parse_bytes(first["input"].encode("utf-8"), "qasper_00.txt")


async def ask(gateway: Any, paper: Paper, question: str) -> RunResult:
    library = Library()
    library.add(paper)
    return await run_graph(build_graph(), {"question": question, "paper_ids": [paper.id]},
                           thread_id="job", checkpointer=memory_checkpointer(),
                           context=context(gateway, library))


async def test_answer_cites_a_located_quote(olid: Paper) -> None:
    gateway = fake_gateway({
        "distiller": [{"quotes": [{"passage": 1, "quote": SIZE_SENTENCE}]}],
        "answerer": [{"sentences": [{"text": "OLID contains 14,100 tweets.", "cites": ["E1"]}]}],
        "checker": [judge()],
    })
    result = await ask(gateway, olid, "How many tweets does the dataset contain?")
    state = result.state
    assert state["status"] == "answered"
    judge_prompt = gateway.calls_for(node="verify_citations")[0].text
    assert "[C1] CLAIM: OLID contains 14,100 tweets." in judge_prompt
    assert "14,100 tweets" in judge_prompt.split("CITED", 1)[1]
    [sentence] = state["sentences"]
    [citation] = sentence.citations
    assert sentence.verified and citation.evidence.verified
    anchor = citation.evidence.anchor
    line = olid.page(anchor.page).line(anchor.line_start)
    assert "14,100 tweets" in line.text
    assert state["strategies"][0].mode == "hybrid"
    assert "E1" in gateway.calls_for(role="answerer")[0].text
    assert SIZE_SENTENCE[:40] in gateway.calls_for(role="answerer")[0].text


async def test_model_says_it_cannot_answer(olid: Paper) -> None:
    gateway = fake_gateway({"distiller": [{"quotes": []}],
                            "answerer": [{"sentences": [], "insufficient": True}]})
    result = await ask(gateway, olid, "Which GPU was used to train the tweet classifiers?")
    assert result.state["status"] == "insufficient_evidence"
    assert result.state["sentences"] == []


async def test_nothing_retrieved_answers_insufficient_without_the_answerer(olid: Paper) -> None:
    gateway = fake_gateway({})
    result = await ask(gateway, olid, "zyxwv qqqq?")
    assert result.state["status"] == "insufficient_evidence"
    assert gateway.calls == []


def _report(result: RunResult, question: str) -> dict[str, Any]:
    return report_json(assemble_report(result.state, kind="cited_qa", question=question,
                                       paper_ids=[]))


async def test_off_topic_answer_with_real_quotes_is_insufficient_and_lists_evidence(
        olid: Paper) -> None:
    question = "What is the population of Tokyo?"
    gateway = fake_gateway({
        "distiller": [{"quotes": [{"passage": 1, "quote": SIZE_SENTENCE}]}],
        "answerer": [{"sentences": [
            {"text": "Tokyo is home to a large community.", "cites": ["E1"]},
            {"text": "The city is released freely to the research community.",
             "cites": ["E1"]}]}],
        "checker": [judge("not_enough", "the text is about a tweet dataset, not Tokyo")]})
    result = await ask(gateway, olid, question)
    state = result.state
    assert state["status"] == "insufficient_evidence" and state["sentences"] == []
    assert len(state["dropped"]) == 2
    for sentence in state["dropped"]:
        assert not sentence.verified and sentence.support == "not_enough"
        assert sentence.citations[0].evidence.found  # real quotes: found, yet not support
    assert state["evidence"] and any(e.evidence.found for e in state["evidence"])
    data = _report(result, question)
    assert data["verification"]["found"] == 2 and data["verification"]["verified"] == 0
    assert data["evidence"] and data["evidence"][0]["found"]
    markdown = to_markdown(assemble_report(state, kind="cited_qa", question=question,
                                           paper_ids=[]))
    answer = markdown.split("## Answer", 1)[1].split("## Plan", 1)[0]
    assert "verified" not in answer.replace("supported (verified)", "")
    assert SIZE_SENTENCE[:40] in markdown.split("## Evidence", 1)[1]  # still listed


async def test_numbers_that_disagree_with_the_cited_text_are_never_verified(
        olid: Paper) -> None:
    gateway = fake_gateway({
        "distiller": [{"quotes": [{"passage": 1, "quote": SIZE_SENTENCE}]}],
        "answerer": [{"sentences": [{"text": "The dataset contains 41,000 tweets.",
                                     "cites": ["E1"]}]}],
        "checker": [judge("supported")]})  # even a fooled checker cannot raise code's verdict
    result = await ask(gateway, olid, "How many tweets does the dataset contain?")
    state = result.state
    assert state["status"] == "insufficient_evidence" and state["sentences"] == []
    (dropped,) = state["dropped"]
    evidence = dropped.citations[0].evidence
    assert evidence.found and not evidence.verified
    assert evidence.support.by == "code" and evidence.support.verdict != "supported"
    assert "41,000" in dropped.reason


def cite_line_with(fact: str) -> Any:
    """A distiller citing, by line id, the first numbered passage line mentioning ``fact``."""
    def answer(messages: Any) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        page, passage = 0, 0
        for raw in text.splitlines():
            if raw.startswith("Passage "):
                passage = int(raw.split()[1].rstrip(":"))
            elif raw.startswith("[p.") and raw.endswith("]"):
                page = int(raw[3:-1])
            elif fact in raw and raw.split(" ", 1)[0].isdigit():
                return {"quotes": [{"passage": passage, "lines": f"{page}:{raw.split()[0]}"}]}
        return {"quotes": []}
    return answer


async def test_distiller_sees_numbered_lines_and_cites_them_by_id(olid: Paper) -> None:
    gateway = fake_gateway({
        "distiller": [cite_line_with("14,100")],
        "answerer": [{"sentences": [{"text": "The dataset has 14,100 tweets.", "cites": ["E1"]}]}],
        "checker": [judge()]})
    result = await ask(gateway, olid, "How many tweets does the dataset contain?")
    distill_prompt = gateway.calls_for(node="distill")[0].text
    assert re.search(r"Passage 1:\n\[p\.\d+\]\n", distill_prompt)
    e1 = result.state["evidence"][0]
    assert e1.evidence.method == "lines" and e1.evidence.cited and e1.evidence.found
    assert "14,100" in e1.evidence.matched_text
    answer_prompt = gateway.calls_for(node="answer")[0].text
    assert e1.evidence.matched_text[:200] in answer_prompt  # the cited text, under id E1
    (sentence,) = result.state["sentences"]
    assert sentence.verified and sentence.citations[0].evidence.method == "lines"
