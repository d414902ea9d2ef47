"""Conversations: a follow-up question gets the earlier turns as context (scripted model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from papermind.domain.answer import Turn
from papermind.domain.job import JobRequest
from papermind.errors import InputError, NotFoundError
from papermind.grounding import GroundingEngine
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.container import Container
from papermind.services.job_store import JobStore
from papermind.services.qa import QAParts, answer_question
from papermind.services.threads import check_follow_up, earlier_turns, thread_of
from tests.support.containers import hashing_container
from tests.workflows.deep_qa.fakes import OFFENSIVE, KeywordRetriever, Library, judge, make_paper

EARLIER = [Turn(question="How many tweets does OLID contain?",
                answer="OLID has 14,100 tweets. [E1]", job_id="j1")]


def parts(script: dict[str, Any], library: Library) -> QAParts:
    return QAParts(gateway=fake_gateway(script), retriever=KeywordRetriever(library),
                   papers=library, grounder=GroundingEngine())


@pytest.fixture
def library() -> Library:
    lib = Library()
    lib.add(make_paper("olid", OFFENSIVE, year=2019))
    return lib


def _single_pass_script() -> dict[str, list[object]]:
    return {"distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
            "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.", "cites": ["E1"]}]}],
            "checker": [judge()]}


async def test_a_follow_up_is_searched_and_answered_with_the_earlier_turns(
        library: Library) -> None:
    qa = parts(_single_pass_script(), library)
    report = await answer_question(qa, "And how were they annotated?", earlier=EARLIER,
                                   checkpointer=memory_checkpointer())
    (answerer,) = [c for c in qa.gateway.calls if c.role == "answerer"]
    assert "Q1: How many tweets does OLID contain?" in answerer.text
    assert "A1: OLID has 14,100 tweets. [E1]" in answerer.text
    assert "CONVERSATION_BEGIN" in answerer.text, "earlier turns are fenced as data"
    assert answerer.text.index("A1:") < answerer.text.index("And how were they annotated?")
    (strategy,) = report.strategies
    assert strategy.query == "How many tweets does OLID contain? And how were they annotated?"
    assert report.question == "And how were they annotated?"


async def test_a_first_question_has_no_conversation(library: Library) -> None:
    qa = parts(_single_pass_script(), library)
    report = await answer_question(qa, "How many tweets does OLID contain?",
                                   checkpointer=memory_checkpointer())
    assert not any("CONVERSATION" in c.text or "follows up" in c.text for c in qa.gateway.calls)
    assert report.strategies[0].query == "How many tweets does OLID contain?"


async def test_the_deep_planner_sees_the_earlier_turns(library: Library) -> None:
    script = {"planner": [{"tasks": [{"id": "t1", "question": "How were OLID tweets annotated?"}]},
                          {"related_terms": []}],
              "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
              "checker": [{"sufficient": True}, judge()],
              "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.", "cites": ["E1"]}]}]}
    qa = parts(script, library)
    await answer_question(qa, "And how were they annotated?", deep=True, earlier=EARLIER,
                          checkpointer=memory_checkpointer())
    planner = next(c for c in qa.gateway.calls if c.node == "plan")
    assert "Q1: How many tweets does OLID contain?" in planner.text


def _finished(store: JobStore, container: Container, question: str,
              follows: str | None, answer: str) -> str:
    job, _ = store.create_or_get_active(question[:8].replace(" ", "-"), JobRequest(
        kind="question", question=question, follows=follows))
    store.finish(job.id, "completed")
    folder = container.report_dir(job.id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps({"answer": answer}), encoding="utf-8")
    return job.id


def test_a_thread_is_the_chain_of_follow_ups(tmp_path: Path) -> None:
    with hashing_container(tmp_path) as container:
        store = JobStore(container.db)
        first = _finished(store, container, "first question", None, "one [E1]")
        second = _finished(store, container, "second question", first, "two [E2]")
        third, _ = store.create_or_get_active("third", JobRequest(
            kind="question", question="third question", follows=second))
        assert [j.id for j in thread_of(store, third.id)] == [first, second, third.id]
        turns = earlier_turns(container, store, third)
        assert [(t.question, t.answer) for t in turns] == [("first question", "one [E1]"),
                                                           ("second question", "two [E2]")]
        assert earlier_turns(container, store, store.get(first)) == []
        with pytest.raises(NotFoundError):
            thread_of(store, "nope")
        reading, _ = store.create_or_get_active("r", JobRequest(kind="reading", paper_id="p"))
        with pytest.raises(InputError):
            check_follow_up(store, reading.id)
