"""Reports shown from their JSON with today's renderer; an unreadable one from its HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papermind.domain.job import JobRequest
from papermind.errors import NotFoundError
from papermind.llm.testing import fake_gateway
from papermind.services.report_files import write_reports
from papermind.services.report_view import load_report, recommendation
from papermind.workflows.review.report import build_report
from tests.support.containers import hashing_container
from tests.support.review_script import run_review, script
from tests.workflows.review.paperkit import build_paper


async def test_a_review_is_rendered_from_its_json_inside_a_layout(tmp_path: Path) -> None:
    result = await run_review(fake_gateway(script()), build_paper(findings=True))
    report = build_report(result.state, models={"meta": "scripted"}, demo_quality=True,
                          usage={"tokens_in": 10, "tokens_out": 5, "cost_usd": 0.0})
    with hashing_container(tmp_path) as box:
        job, _ = box.job_store.create_or_get_active("j1", JobRequest(kind="review",
                                                                     paper_id=report.paper_id))
        with pytest.raises(NotFoundError):
            load_report(box, job)
        box.job_store.finish(job.id, "completed")
        job = box.job_store.get(job.id)
        folder = box.report_dir(job.id)
        write_reports(report, folder)
        (folder / "report.html").write_text("<html><body><p>stale html</p></body></html>")
        view = load_report(box, job)
        assert view.fresh and view.title == report.title
        assert "stale html" not in view.body, "today's renderer, not the stored page"
        assert "<html" not in view.body and "<style" not in view.body
        assert view.body.count('<details class="internals">') >= 1
        assert 'class="cite' in view.body and report.names, "citations, human names"
        assert any(name in view.body for name in report.names.values())
        assert f'href="/papers/{report.paper_id}/pages/' in view.body.split("Recommendation")[0], \
            "findings open their page"

        (folder / "report.json").write_text(json.dumps({"kind": "review", "bogus": 1}))
        old = load_report(box, job)
        assert not old.fresh and "stale html" in old.body


async def test_the_job_page_and_mcp_verdict_carries_the_scores_flag(tmp_path: Path) -> None:
    """'accept' with every score 1/10: wherever the recommendation shows, its flag does."""
    low = {role: [{**answer[0], "score": 1}] for role, answer in script().items()
           if role.endswith("_reviewer")}
    meta = {**script()["meta"][0], "recommendation": "accept"}
    result = await run_review(fake_gateway(script(**low, meta=[meta])), build_paper())
    report = build_report(result.state)
    with hashing_container(tmp_path) as box:
        job, _ = box.job_store.create_or_get_active("j1", JobRequest(kind="review",
                                                                     paper_id=report.paper_id))
        assert recommendation(box, job) is None, "no verdict before the job completes"
        box.job_store.finish(job.id, "completed")
        write_reports(report, box.report_dir(job.id))
        said = recommendation(box, box.job_store.get(job.id))
    assert said is not None and said.startswith("accept (confidence ")
    assert "flag: recommendation 'accept' contradicts the scores: every score is <= 4/10" in said
