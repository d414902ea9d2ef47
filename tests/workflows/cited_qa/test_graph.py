"""Single-pass cited QA on a QASPER paper (real ingest and grounding, scripted model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from papermind.domain import Paper
from papermind.ingest import parse_bytes
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.cited_qa.graph import build_graph
from tests.workflows.deep_qa.fakes import Library, context

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
    })
    result = await ask(gateway, olid, "How many tweets does the dataset contain?")
    state = result.state
    assert state["status"] == "answered"
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
