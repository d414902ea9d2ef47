"""The invalid-output policy (workflows/model_output.py) in the review panel: a model that
never gives valid output degrades its step with a warning; the run completes."""

from __future__ import annotations

from papermind.domain import Paper
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.render import to_html, to_markdown
from papermind.workflows.review.report import build_report
from tests.support.review_script import run_review, script

GARBAGE = ["not json"] * 8


async def test_a_reviewer_without_valid_output_abstains(paper: Paper) -> None:
    gateway = fake_gateway(script(methodology_reviewer=GARBAGE))
    result = await run_review(gateway, paper, max_rounds=1)
    assert result.status == "completed"
    report = build_report(result.state)
    assert "methodology_reviewer" not in {s.reviewer for s in report.scores}
    assert {s.reviewer for s in report.scores} == {
        "contribution_reviewer", "experiment_reviewer", "reproducibility_reviewer"}
    assert not any(c.sender == "methodology_reviewer" for c in report.comments)
    (warning,) = report.warnings
    assert warning.startswith("methodology_reviewer: the methodology_reviewer model gave no "
                              "valid output") and warning.endswith("no score and no comments")
    assert report.recommendation == "major_revision"  # the rest of the panel still decides
    assert warning in to_markdown(report) and "warning: methodology_reviewer" in to_html(report)


async def test_editor_devil_and_meta_without_valid_output_degrade(paper: Paper) -> None:
    gateway = fake_gateway(script(editor=GARBAGE, devil=GARBAGE, meta=GARBAGE))
    result = await run_review(gateway, paper, max_rounds=1)
    assert result.status == "completed"
    report = build_report(result.state)
    assert [w.split(":")[0] for w in report.warnings] == ["editor", "devil", "meta"]
    assert report.warnings[0].endswith("the reviewers got their default tasks")
    assert report.recommendation is None and report.arbitrations == []  # nothing invented
    assert not any(c.kind == "attack" for c in report.comments)
    assert len(report.scores) == 4  # the reviewers' own work is kept
