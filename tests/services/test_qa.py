"""QA use cases: scope resolution, reports with usage and models, durable resume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from papermind.config import Settings
from papermind.errors import InputError, NotFoundError
from papermind.grounding import GroundingEngine
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.container import Container
from papermind.services.qa import QAParts, answer_question
from papermind.workflows.deep_qa.render import to_html, to_markdown
from papermind.workflows.deep_qa.report import report_json
from tests.workflows.deep_qa.fakes import (
    OFFENSIVE,
    KeywordRetriever,
    Library,
    judge,
    make_paper,
    or_judge,
)

FAKE = "The CNN reaches a macro F1 of 0.95 on every level."


def parts(script: dict[str, Any], library: Library) -> QAParts:
    def resolve(prefix: str) -> str:
        found = [p for p in library.papers if p.startswith(prefix)]
        if len(found) != 1:
            raise NotFoundError(f"no paper with id {prefix!r}")
        return found[0]
    return QAParts(gateway=fake_gateway(script), retriever=KeywordRetriever(library),
                   papers=library, grounder=GroundingEngine(), resolve_id=resolve)


@pytest.fixture
def library() -> Library:
    lib = Library()
    lib.add(make_paper("olid", OFFENSIVE, year=2019))
    return lib


async def test_single_pass_report(library: Library) -> None:
    paper_id = next(iter(library.papers))
    qa = parts({"distiller": [{"quotes": [{"passage": 1, "quote": FAKE}]}],
                "answerer": [{"sentences": [
                    {"text": "OLID has 14,100 tweets.", "cites": ["[E2]"]},
                    {"text": "The CNN reaches 0.95.", "cites": ["E1"]}]}],
                "checker": [judge()]}, library)
    steps: list[str] = []
    report = await answer_question(qa, "  How many tweets\n does OLID contain? ",
                                   paper_ids=[paper_id[:8]], job_id="job-1",
                                   progress=lambda node, info: steps.append(node),
                                   checkpointer=memory_checkpointer())
    assert report.kind == "cited_qa" and report.question == "How many tweets does OLID contain?"
    assert report.paper_ids == [paper_id] and report.title == "olid"
    assert steps[0] == "prepare_search" and steps[-1] == "verify_citations"
    (first,) = report.sentences
    assert first.cites == ["E2"] and first.verified
    (second,) = report.dropped  # cites a made-up quote: not found, so not part of the answer
    assert not second.verified and second.text == "The CNN reaches 0.95."
    assert report.status == "answered" and report.source_papers == [paper_id]
    v = report.verification
    assert (v.total, v.found, v.verified) == (2, 1, 1)
    assert report.models == {"distiller": "scripted", "answerer": "scripted",
                             "checker": "scripted"}
    assert report.usage["calls"] == 3
    assert set(report.usage["by_node"]) == {"distill", "answer", "verify_citations"}
    data = report_json(report)
    cited = [c for s in data["sentences"] + data["dropped"] for c in s["citations"]]
    for item in data["evidence"] + cited:
        assert {"quote", "found", "verified", "anchor", "support", "status"} <= set(item)
        assert item["found"] == (item["anchor"] is not None)
        assert item["verified"] == (item["found"] and item["support"]["verdict"] == "supported")
    assert data["verification"]["share_verified"] == 0.5
    assert data["dropped"][0]["citations"][0]["status"].startswith("NOT FOUND")
    markdown = to_markdown(report)
    assert "p. 1, l. 2" in markdown and "NOT FOUND" in markdown
    assert "## Dropped: sentences their citations do not support" in markdown
    html = to_html(report)
    assert 'class="cite not_found"' in html and f'data-paper="{paper_id}"' in html
    assert 'class="cite verified"' in html and 'data-page="1"' in html


async def test_bad_question_and_unknown_paper(library: Library) -> None:
    qa = parts({}, library)
    with pytest.raises(InputError):
        await answer_question(qa, " \n ", checkpointer=memory_checkpointer())
    with pytest.raises(NotFoundError):
        await answer_question(qa, "What?", paper_ids=["zz"], checkpointer=memory_checkpointer())


async def test_deep_run_is_durable_in_sqlite(library: Library, tmp_path: Path) -> None:
    script = {"planner": [{"tasks": [{"id": "t1", "question": "How many tweets in OLID?"}]},
                          {"related_terms": []}],
              "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
              "checker": [{"sufficient": True}, or_judge({"pairs": []}), judge()],
              "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.",
                                           "cites": ["E1"]}]}]}
    qa = parts(script, library)
    box = Container(Settings(home=tmp_path))
    async with box.checkpointer() as saver:
        report = await answer_question(qa, "How big is OLID?", deep=True, job_id="j",
                                       checkpointer=saver)
    assert report.kind == "deep_qa" and report.status == "answered"
    assert [t.question for t in report.plan] == ["How many tweets in OLID?"]
    assert report.models["planner"] == "scripted"
    async with box.checkpointer() as saver:  # reopened, as by a new process
        again = await answer_question(qa, "How big is OLID?", deep=True, job_id="j",
                                      checkpointer=saver)
    assert again.sentences == report.sentences
    assert len(qa.gateway.calls) == 6  # the finished job is read back, not re-run
