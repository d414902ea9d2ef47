"""The workflow table: every row resolves to a renderer with the one contract, a use case
with ``run_job``, graphs and an evaluation harness; the review's call count is derived from
the panel table and matches what a full review actually calls."""

from __future__ import annotations

import pytest

from papermind.domain.job import JobRequest
from papermind.domain.workflows import BY_REPORT_KIND, WORKFLOWS
from papermind.evaluation.runs import review as eval_review
from papermind.evaluation.runs.jobs import harness
from papermind.llm.testing import fake_gateway
from papermind.reports import check
from papermind.services.job_runners import workflow_runners
from papermind.services.workflow_table import (
    graph_modules,
    renderer,
    use_case,
)
from papermind.workflows.review import FULL_PANEL
from papermind.workflows.review.panel import REVIEWER_ROLES
from tests.support.review_script import run_review, script
from tests.workflows.review.paperkit import build_paper

CONTRACT = ("to_json", "from_json", "to_markdown", "to_html", "to_html_body", "to_terminal")


@pytest.mark.parametrize("kind", list(WORKFLOWS))
def test_every_row_resolves_to_its_contract(kind: str) -> None:
    spec = WORKFLOWS[kind]
    assert all(callable(getattr(renderer(spec), name)) for name in CONTRACT)
    assert callable(use_case(spec).run_job)
    assert all(callable(m.build_graph) for m in graph_modules(spec))
    assert spec.evaluation is None or callable(harness(spec.evaluation).evaluation)
    assert all(BY_REPORT_KIND[k] is spec for k in spec.report_kinds)


def test_the_user_visible_names_stay() -> None:
    assert list(WORKFLOWS) == ["reading", "review", "question"]
    assert {k: s.evaluation for k, s in WORKFLOWS.items()} == {
        "reading": "reading", "review": "review", "question": "qa"}
    assert set(BY_REPORT_KIND) == {"deep_reading", "review", "cited_qa", "deep_qa"}
    assert set(workflow_runners(object())) == set(WORKFLOWS)


def test_requests_are_validated_by_the_row() -> None:
    with pytest.raises(ValueError, match="a review job needs paper_id"):
        JobRequest(kind="review")
    with pytest.raises(ValueError, match="a question job needs a non-empty question"):
        JobRequest(kind="question", question=" ")
    with pytest.raises(ValueError, match="unknown job kind 'summary'"):
        JobRequest(kind="summary", paper_id="p")
    schema = JobRequest.model_json_schema()["properties"]["kind"]
    assert schema["enum"] == ["reading", "review", "question"]


def test_the_check_renders_under_the_contract_names() -> None:
    assert all(callable(getattr(check, name)) for name in ("to_json", "to_markdown",
                                                           "to_terminal"))


async def test_a_full_review_makes_the_calls_the_estimate_counts() -> None:
    assert (*FULL_PANEL, "checker") == eval_review.ROLES
    assert set(REVIEWER_ROLES) <= set(eval_review.ROLES)
    assert "reproducibility_reviewer" in eval_review.ROLES
    gateway = fake_gateway(script())
    await run_review(gateway, build_paper())
    assert len(gateway.calls) == eval_review.CALLS["full"] == 8
    minimal = fake_gateway(script())
    await run_review(minimal, build_paper(), panel=["editor", "contribution_reviewer",
                                                    "experiment_reviewer", "meta"])
    assert len(minimal.calls) == eval_review.CALLS["minimal"] == 5
