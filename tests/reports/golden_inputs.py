"""The fixed reports the golden tests render, made once from fake-model runs.

``python -m tests.reports.golden_inputs`` rewrites ``golden/inputs/*.json`` (each report's
domain model as JSON) from the scripted fake model and the test papers; the golden test
(``test_golden.py``) reads them back and renders every format. Rewrite the inputs only when
a report model changes; then regenerate the outputs (PAPERMIND_GOLDEN_UPDATE=1) and review
the diff.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from pydantic import BaseModel

from papermind.config import Settings
from papermind.grounding import GroundingEngine
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.container import Container
from papermind.services.paper_checks import check_stored
from papermind.services.qa import QAParts, answer_question
from papermind.services.reading import read_paper
from papermind.workflows.review.report import build_report
from tests.support.reading_script import PAPER_MD, checker_answer, questions_answer, reader_answer
from tests.support.review_script import run_review, script, with_lost_comment
from tests.workflows.deep_qa.fakes import (
    OFFENSIVE,
    KeywordRetriever,
    Library,
    judge,
    make_paper,
    or_judge,
)
from tests.workflows.review.paperkit import build_paper

INPUTS = Path(__file__).parent / "golden" / "inputs"
FAKE = "The CNN reaches a macro F1 of 0.95 on every level."


async def reading() -> BaseModel:
    with tempfile.TemporaryDirectory() as home:
        path = Path(home) / "sparse_routing.md"
        path.write_text(PAPER_MD)
        gateway = fake_gateway({"reader": [reader_answer()], "checker": [checker_answer("high")],
                                "questioner": [questions_answer(["M1", "R1"])]})
        with Container(Settings(home=Path(home) / "home")) as box:
            run = await read_paper(box, path, job_id="golden-reading", gateway=gateway)
    return run.report


async def review() -> BaseModel:
    paper = build_paper(findings=True)
    gateway = fake_gateway(script())
    result = await run_review(gateway, paper)
    state = {**result.state, "check": check_stored(paper)}
    report = build_report(state, models={"meta": "scripted", "checker": "scripted"},
                          usage={"tokens_in": 1200, "tokens_out": 340, "cost_usd": 0.0123,
                                 "calls": 8, "by_node": {}})
    return with_lost_comment(report)


def _qa_parts(answers: dict[str, list[object]], library: Library) -> QAParts:
    return QAParts(gateway=fake_gateway(answers), retriever=KeywordRetriever(library),
                   papers=library, grounder=GroundingEngine())


async def cited_qa() -> BaseModel:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE, year=2019))
    paper_id = next(iter(library.papers))
    parts = _qa_parts({"distiller": [{"quotes": [{"passage": 1, "quote": FAKE}]}],
                       "answerer": [{"sentences": [
                           {"text": "OLID has 14,100 tweets.", "cites": ["[E2]"]},
                           {"text": "The CNN reaches 0.95.", "cites": ["E1"]}]}],
                       "checker": [judge()]}, library)
    return await answer_question(parts, "How many tweets does OLID contain?",
                                 paper_ids=[paper_id], job_id="golden-cited",
                                 checkpointer=memory_checkpointer())


async def deep_qa() -> BaseModel:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE, year=2019))
    parts = _qa_parts({
        "planner": [{"tasks": [{"id": "t1", "question": "How many tweets in OLID?"}]},
                    {"related_terms": []}],
        "distiller": [{"quotes": [{"passage": 1, "quote": OFFENSIVE[1]}]}],
        "checker": [{"sufficient": True}, or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.", "cites": ["E1"]}]}]},
        library)
    return await answer_question(parts, "How big is OLID?", deep=True, job_id="golden-deep",
                                 checkpointer=memory_checkpointer())


def check() -> BaseModel:
    return check_stored(build_paper(findings=True), venue="neurips", anonymous=True)


async def make_all() -> dict[str, BaseModel]:
    return {"reading": await reading(), "review": await review(),
            "cited_qa": await cited_qa(), "deep_qa": await deep_qa(), "check": check()}


def main() -> None:
    INPUTS.mkdir(parents=True, exist_ok=True)
    for name, report in asyncio.run(make_all()).items():
        (INPUTS / f"{name}.json").write_text(report.model_dump_json(indent=1) + "\n",
                                             encoding="utf-8")
        print("wrote", INPUTS / f"{name}.json")


if __name__ == "__main__":
    main()
