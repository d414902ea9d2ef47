"""Markdown reports are safe to render: paper, user and model text is escaped in every one
(no raw tags, no link or image syntax, no script URL), and still reads as written."""

from __future__ import annotations

import re

from papermind.domain import Evidence
from papermind.domain.answer import AnswerSentence, QAReport
from papermind.domain.reading import ContextInfo, Question, ReadingPoint, ReadingReport
from papermind.llm.testing import fake_gateway
from papermind.reports import md_text
from papermind.workflows.deep_qa.render import to_markdown as qa_markdown
from papermind.workflows.deep_reading.render import to_markdown as reading_markdown
from papermind.workflows.review.render import to_markdown as review_markdown
from papermind.workflows.review.report import build_report
from tests.support.review_script import EDITOR, META, run_review, script
from tests.workflows.review.paperkit import build_paper

SCRIPT = "<script>alert(document.cookie)</script>"
IMAGE = '<img src=x onerror="alert(1)">'
LINK = "[click here](javascript:alert(1))"
HOSTILE = f"Title {SCRIPT} {IMAGE} {LINK} ![pic](http://evil.example/x.png)"


def raw_markup(md: str) -> list[str]:
    """Everything in ``md`` a Markdown viewer would render as markup from hostile text."""
    patterns = [r"<\s*script", r"<\s*img", r"javascript\s*:", r"(?<!\\)\]\((?!/papers/)"]
    return [p for p in patterns if re.search(p, md, re.IGNORECASE)]


def test_md_text_keeps_the_words_and_drops_the_markup() -> None:
    out = md_text(HOSTILE)
    assert raw_markup(out) == []
    assert "&lt;script&gt;alert(document.cookie)&lt;/script&gt;" in out
    assert "\\[click here\\](javascript&#58;alert(1))" in out
    assert md_text("a | b\nc") == "a \\| b c"


async def test_a_review_report_of_a_hostile_paper_carries_no_raw_markup() -> None:
    paper = build_paper(findings=True).model_copy(update={"title": HOSTILE})
    answers = script(editor=[{**EDITOR, "summary": f"Editor says {HOSTILE}"}],
                     meta=[{**META, "revision_plan": [
                         {"action": f"Fix {LINK} {SCRIPT}", "addresses": ["M4"]}]}])
    result = await run_review(fake_gateway(answers), paper)
    md = review_markdown(build_report(result.state, models={"meta": "scripted"}))
    assert raw_markup(md) == [], md
    assert "&lt;script&gt;" in md and "Editor says Title" in md
    assert re.search(r"\]\(/papers/\w+/pages/\d+\?lines=", md)  # our own links still link


def test_a_reading_report_escapes_title_points_and_questions() -> None:
    bad = Evidence(quote=HOSTILE, cited="9:99", reasons=["the paper has no line 9:99"])
    report = ReadingReport(
        paper_id="abc", title=HOSTILE, models={"reader": "m"}, credibility="low",
        points=[ReadingPoint(id="M1", kind="method", text=f"Point {IMAGE}", evidence=[bad],
                             verdict="not_found", verdict_note=LINK)],
        questions=[Question(text=f"Why {SCRIPT}?", builds_on=["M1"])], warnings=[LINK],
        context=ContextInfo(paper_tokens=9, context_tokens=9))
    assert raw_markup(reading_markdown(report)) == []


def test_a_qa_report_escapes_the_question_and_the_answer() -> None:
    report = QAReport(kind="deep_qa", question=f"What about {SCRIPT}?", status="answered",
                      sentences=[AnswerSentence(text=f"It says {IMAGE} {LINK}", cites=["E1"])],
                      notes=[HOSTILE], stop_reason=LINK)
    md = qa_markdown(report)
    assert raw_markup(md) == [] and "What about &lt;script&gt;" in md
