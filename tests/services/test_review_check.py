"""The review panel starts from the check: every actor's prompt carries its findings fenced
as data; code lists the high ones no comment addressed; offline (bundled model) the review
is the check's findings by aspect with no scores and no recommendation."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from papermind.config import EndpointSettings, LLMSettings, Settings
from papermind.domain import Anchor
from papermind.domain.check import CheckFinding, CheckReport
from papermind.domain.review import ReportComment
from papermind.llm.gateway import Gateway
from papermind.llm.testing import MockOpenAIServer
from papermind.services.container import Container
from papermind.services.review import review_paper
from papermind.workflows.review.check_facts import for_lines, unaddressed
from papermind.workflows.review.render import to_terminal
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper

DRAFT = Path(__file__).parents[1] / "grounding" / "check_fixtures" / "draft.md"


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder) as server:
        yield server


def _container(home: Path, base_url: str) -> Container:
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="k", timeout_s=30)
    return Container(Settings(home=home, llm=LLMSettings(endpoints={"default": endpoint}),
                              search={"embedder": "hashing"}))  # type: ignore[arg-type]


def _prompt(request: dict[str, object]) -> str:
    messages = request.get("messages", [])
    assert isinstance(messages, list)
    return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


async def test_every_panel_prompt_carries_the_check_fenced(home: Path, tmp_path: Path,
                                                          mock: MockOpenAIServer) -> None:
    with _container(home, mock.base_url) as container:
        run = await review_paper(container, write_paper(tmp_path), out_dir=tmp_path / "out")
    prompts = [_prompt(r) for r in mock.requests]
    fenced = [p for p in prompts if "<<<CHECK_BEGIN" in p]
    assert len(fenced) == 6  # editor, four reviewers, meta (not the devil, not the judge)
    assert all("untrusted data" in p for p in fenced)
    assert run.report.check is not None
    assert "Check findings" in (tmp_path / "out" / "report.md").read_text()


def _finding(line: int, severity: str = "high") -> CheckFinding:
    return CheckFinding(kind="citation_without_entry", severity=severity,  # type: ignore[arg-type]
                        aspect="citations", message="m",
                        anchor=Anchor(paper_id="p", page=1, line_start=line, line_end=line))


def _comment(line: int) -> ReportComment:
    return ReportComment(message_id="x", sender="experiment_reviewer", kind="issue", round=1,
                         target="", content="c", confidence=1.0, weight=1.0, found=True,
                         support="unchecked", verified=False,
                         evidence=[{"anchor": {"page": 1, "line_start": line, "line_end": line}}])


def test_high_findings_no_comment_addresses_are_listed() -> None:
    check = CheckReport(findings=[_finding(13), _finding(40), _finding(60, "low")])
    left = unaddressed(check, [_comment(12)])
    assert [f.anchor.line_start for f in left if f.anchor] == [40]
    from papermind.domain import LineRef

    shown = for_lines(check, [LineRef(page=1, line=40)])
    assert [f.anchor.line_start for f in shown if f.anchor] == [40]


def _commenter(request: dict) -> dict:
    """The offline commenter: a faithful sentence for citation findings (the finding's own
    words, reordered), an invented one for every other finding."""
    prompt = json.dumps(request["messages"])
    if "bibliography" not in prompt:
        return {"sentences": ["Report 95.5% accuracy on ImageNet as Smith did."]}
    found = re.search(r"FINDING_BEGIN [^>]*>>>\\n(.*?)\\n<<<", prompt)
    words = re.findall(r"[a-z]{5,}", found.group(1).lower() if found else "")
    return {"sentences": ["Please check the " + " and the ".join(words[:3]) + " here."]}


async def test_offline_review_is_the_check_without_scores(home: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Gateway, "is_demo_quality", property(lambda self: True))
    paper = tmp_path / "draft.md"
    shutil.copy(DRAFT, paper)
    with MockOpenAIServer(responder=_commenter) as mock, \
            _container(home, mock.base_url) as container:
        run = await review_paper(container, paper, out_dir=tmp_path / "out")
        requests = mock.request_count
    report = run.report
    assert report.check is not None
    assert 0 < requests <= min(12, len(report.check.findings))  # one small call per finding
    assert report.scores == [] and report.recommendation is None and report.comments == []
    assert "needs a configured model" in report.scoring_note
    console = Console(record=True, width=200)
    to_terminal(console, report, run.job_id)
    summary = console.export_text()
    assert "needs a configured model" in summary and "None" not in summary
    commented = [f for f in report.check.findings if f.comment]
    assert commented and all("bibliography" in f.message + f.fix for f in commented)
    assert not any("95.5" in f.comment for f in report.check.findings)  # invented: dropped
    dropped = [f for f in report.check.findings if f.comment_note.startswith("comment dropped")]
    assert dropped, "a finding whose comment was dropped says so"
    assert all("the number 95.5% is not in the passage" in f.comment_note for f in dropped), \
        "and why"
    assert any(w.startswith(f"finding_comments: kept {len(commented)} of ")
               for w in report.warnings)
    assert "Comment dropped: the number 95.5%" in (tmp_path / "out" / "report.md").read_text()
    assert any(f.kind == "citation_without_entry" for f in report.check.findings)
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    assert data["recommendation"] is None and data["scores"] == []
    assert all("95.5" not in f.get("comment", "") for f in data["check"]["findings"])
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "needs a configured model" in markdown and "## Recommendation" not in markdown
    assert "### Citations and bibliography" in markdown
    html = (tmp_path / "out" / "report.html").read_text()
    assert "needs a configured model" in html and "/pages/1?lines=13-13" in html
