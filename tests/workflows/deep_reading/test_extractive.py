"""The extractive reading (bundled model, small windows): passages code chose, explanations
checked against them, support by code alone offline, questions from the paper."""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import BaseMessage

from papermind.domain import Anchor, Paper
from papermind.grounding import GroundingEngine
from papermind.llm.testing import fake_gateway
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.deep_reading import ReadingContext, build_graph
from papermind.workflows.deep_reading.questions import Source, screen
from papermind.workflows.deep_reading.render import to_markdown
from papermind.workflows.deep_reading.report import assemble_report
from tests.support.reading_script import Papers

_FENCE = re.compile(r"<<<(?:PASSAGE|SOURCE)_BEGIN [^>]*>>>\n(.*?)\n<<<", re.DOTALL)


def _passage(messages: list[BaseMessage]) -> str:
    text = "\n".join(str(m.content) for m in messages)
    match = _FENCE.search(text)
    if match:
        return match.group(1)
    body = text.split("PASSAGE", 2)
    return body[1] if len(body) > 1 else text


def plain(messages: list[BaseMessage]) -> dict[str, Any]:
    """A faithful explanation: the passage's own content words, reordered and shortened."""
    words = [w for w in re.findall(r"[a-z]{4,}", _passage(messages).lower())][:6]
    return {"sentences": ["In short, this is about " + " and ".join(words) + "."]}


def invents(messages: list[BaseMessage]) -> dict[str, Any]:
    """An explanation with a number and a name the passage lacks (as a 0.5B model does)."""
    return {"sentences": ["The text reports 92.1% on GLUE, supported."]}


def question(messages: list[BaseMessage]) -> dict[str, Any]:
    words = re.findall(r"[a-z]{5,}", _passage(messages).lower())
    topic = words[0] if words else "this"
    return {"question": f"Why does the {topic} matter here, and what if it changed?"}


def generic(messages: list[BaseMessage]) -> dict[str, Any]:
    return {"question": "What would break if an assumption failed?"}


def _context(paper: Paper, script: dict[str, list[Any]], *, local: bool = True,
             **knobs: Any) -> tuple[ReadingContext, Any]:
    gateway = fake_gateway(script, local=local)
    ctx = ReadingContext(gateway=gateway, grounder=GroundingEngine(), papers=Papers(paper),
                         extractive=True, max_points=3, max_questions=4, **knobs)
    return ctx, gateway


async def _run(paper: Paper, ctx: ReadingContext) -> RunResult:
    return await run_graph(build_graph(), {"paper_id": paper.id}, thread_id="job-x",
                           checkpointer=memory_checkpointer(), context=ctx)


async def test_offline_points_are_the_papers_text_verified_by_code(paper: Paper) -> None:
    ctx, gw = _context(paper, {"explainer": [plain] * 20, "question_writer": [question] * 10})
    result = await _run(paper, ctx)
    points = result.state["points"]
    assert points and {p.kind for p in points} >= {"method", "experiment", "result"}
    for p in points:
        assert p.source == "extracted" and p.verified and p.verdict_by == "code"
        (e,) = p.evidence
        assert e.anchor is not None and e.anchor.paper_id == paper.id
        # the point's text is in the anchored lines (found by construction)
        assert " ".join(p.text.split())[:40] in " ".join(e.matched_text.split())
        assert p.explanation and not p.explanation_note
        assert p.verdict_note == "the paper's own sentences at these lines, chosen by code"
    assert all(e.found for e in result.state["question_sources"])  # cited once, by code
    assert gw.calls_for(role="checker") == []  # the bundled model is not a support judge
    assert "support decided by code only" in " ".join(result.state["rounds"][0].notes)
    assert result.nodes_run == ["context_loader", "deep_reader", "hallucination_checker",
                                "questioner"]
    for call in gw.calls_for(role="explainer"):  # one short passage per call, nothing else
        assert len(call.text) < 2500 and "[p.1]" not in call.text


async def test_a_model_whose_glosses_measured_wrong_shows_none(paper: Paper) -> None:
    """explain=False (the bundled 0.5B: 2 of 3 shown glosses wrong on the gloss bench): the
    passages stay quoted and verified, the model is never asked, the report says why."""
    ctx, gw = _context(paper, {"explainer": [invents] * 20, "question_writer": [question] * 10},
                       explain=False)
    result = await _run(paper, ctx)
    points = result.state["points"]
    assert points and all(p.verified and not p.explanation for p in points)
    assert gw.calls_for(role="explainer") == []
    assert "explanations withheld for all" in " ".join(result.state["rounds"][0].notes)


def test_the_bundled_models_rows_say_which_explain() -> None:
    from papermind.llm.local import BUNDLED_MODELS, explains

    assert [m.explains for m in BUNDLED_MODELS] == [True, False, False]  # 1.5B, 0.5B, 135M
    assert explains("qwen2.5-coder-0.5b-instruct-q4km") is False
    assert explains("some-configured-model") is True


def picky(messages: list[BaseMessage]) -> dict[str, Any]:
    """Invents on one passage (every time), explains the others faithfully."""
    return invents(messages) if "evaluate on GLUE" in _passage(messages) else plain(messages)


async def test_a_dropped_explanation_is_not_asked_again_by_default(paper: Paper) -> None:
    """A rewrite round would change no verdict (the points are code's passages) and bought
    one explanation of ten for minutes of the bundled model: skipped, and said so."""
    ctx, gw = _context(paper, {"explainer": [picky] * 30, "question_writer": [question] * 10})
    result = await _run(paper, ctx)
    assert result.nodes_run == ["context_loader", "deep_reader", "hallucination_checker",
                                "questioner"]
    points = result.state["points"]
    assert len(gw.calls_for(role="explainer")) == len(points), "each passage asked once"
    assert [p for p in points if not p.explanation][0].verified
    notes = " ".join(result.state["rounds"][0].notes)
    assert "1 explanation(s) not asked again" in notes
    assert "reading_reask_explanations" in notes


async def test_a_failed_explanation_is_redone_alone_then_dropped(paper: Paper) -> None:
    ctx, gw = _context(paper, {"explainer": [picky] * 30, "question_writer": [question] * 10},
                       reask_explanations=True)
    result = await _run(paper, ctx)
    assert result.nodes_run.count("deep_reader") == 2
    points = result.state["points"]
    calls = gw.calls_for(role="explainer")
    assert len(calls) == len(points) + 1  # every passage once, then only the failed one
    assert "evaluate on GLUE" in calls[-1].text
    failed = [p for p in points if not p.explanation]
    assert len(failed) == 1 and "not in the passage" in failed[0].explanation_note
    assert failed[0].verified  # still the paper's own text, shown quoted
    markdown = to_markdown(assemble_report(result.state, paper_id=paper.id, job_id="j",
                                           gateway=gw))
    assert "The text reports 92.1% on GLUE" not in markdown  # a dropped explanation never shows
    assert "In plain words" in markdown and "Not explained" in markdown
    assert "Support judged by: code only" in markdown


async def test_questions_cite_lines_and_generic_or_repeated_ones_are_dropped(
        paper: Paper) -> None:
    ctx, _ = _context(paper, {"explainer": [plain] * 20,
                              "question_writer": [question, generic, question] + [generic] * 8})
    result = await _run(paper, ctx)
    kept = result.state["questions"]
    assert kept and all(q.anchors and q.builds_on for q in kept)
    reasons = " ".join(d.reason for d in result.state["dropped_questions"])
    assert "generic" in reasons
    texts = [q.text for q in kept]
    assert len(texts) == len(set(texts))


async def test_a_configured_checker_still_judges_on_top_of_code(paper: Paper) -> None:
    def judge(messages: list[BaseMessage]) -> dict[str, Any]:
        ids = re.findall(r"\[(C\d+)\] CLAIM", "\n".join(str(m.content) for m in messages))
        return {"verdicts": [{"id": i, "verdict": "supported", "reason": "stated"}
                             for i in ids]}
    ctx, gw = _context(paper, {"explainer": [plain] * 20, "checker": [judge] * 3,
                               "question_writer": [question] * 10}, local=False)
    result = await _run(paper, ctx)
    assert gw.calls_for(role="checker")
    assert all(p.verdict_by.startswith("checker") for p in result.state["points"])


def test_report_json_round_trips_explanations(paper: Paper) -> None:
    from papermind.domain.reading import ReadingPoint, ReadingReport
    from papermind.workflows.deep_reading.render import from_json, to_json
    point = ReadingPoint(id="M1", kind="method", text="We propose X.", source="extracted",
                         explanation="It proposes X.")
    report = ReadingReport(paper_id=paper.id, points=[point])
    again = from_json(json.loads(json.dumps(to_json(report))))
    assert again.points[0].explanation == "It proposes X."
    assert again.points[0].source == "extracted"


def test_a_question_that_shares_only_generic_words_is_generic() -> None:
    anchor = Anchor(paper_id="p", page=3, line_start=77, line_end=80)
    items = [Source("L1", "limitation", "a limitation the paper states",
                    "A limitation of our study is that every question comes from one "
                    "collection of machine learning papers.", (anchor,)),
             Source("R1", "result", "a result point of the paper",
                    "Question answering over long papers improves by 4 points.", (anchor,))]
    drafts = [("What is the main limitation of the text?", ["L1"], ""),
              ("What does the paper do not answer?", ["R1"], ""),
              ("Would papers from another field than machine learning change the finding?",
               ["L1"], "")]
    kept, dropped = screen(drafts, items, known=set(), limit=4)
    assert [q.text for q in kept] == [drafts[2][0]]
    assert all("generic question" in d.reason for d in dropped) and len(dropped) == 2
