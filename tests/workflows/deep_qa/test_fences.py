"""Deep QA: what a model wrote (the planner's sub-questions, the working memory, earlier
answers of the conversation) reaches later prompts only inside a nonce fence."""

from __future__ import annotations

from langchain_core.messages import SystemMessage

from papermind.domain.answer import Turn
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import run_graph
from papermind.workflows.deep_qa.graph import build_graph
from tests.workflows.deep_qa.fakes import OFFENSIVE, Library, context, judge, make_paper, or_judge
from tests.workflows.review.test_fences import INJECTED, unfenced


async def test_sub_questions_and_earlier_answers_enter_prompts_only_fenced() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE))
    question = f"How many tweets does OLID contain? {INJECTED}"
    gateway = fake_gateway({
        "planner": [{"tasks": [{"id": "t1", "question": question, "tool": "library_search"}]},
                    {"related_terms": []}],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
        "checker": [{"sufficient": True, "missing": "", "next_query": ""},
                    or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID contains 14,100 tweets.", "cites": ["E1"]}]}],
    })
    earlier = [Turn(question="What is OLID?", answer=f"A dataset. {INJECTED}")]
    await run_graph(build_graph(), {"question": "And how big is it?", "earlier": earlier},
                    thread_id="t", checkpointer=memory_checkpointer(),
                    context=context(gateway, library))
    later = [c for c in gateway.calls if INJECTED in c.text]
    assert {c.node for c in later} >= {"plan", "choose_strategy", "distill", "answer"}
    assert [(c.node, unfenced(c.text)) for c in later if INJECTED in unfenced(c.text)] == []
    assert not [m for c in gateway.calls for m in c.messages
                if isinstance(m, SystemMessage) and INJECTED in str(m.content)]
