"""Review use case: ingest, run under the SQLite checkpointer, write the three reports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.config import EndpointSettings, LLMSettings, Settings
from papermind.errors import InputError
from papermind.llm.testing import MockOpenAIServer
from papermind.services.container import Container
from papermind.services.review import input_chars, panel_for, review_paper
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper
from tests.workflows.review.paperkit import build_paper


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder) as server:
        yield server


def _container(home: Path, base_url: str, **workflows: object) -> Container:
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="k", timeout_s=30)
    settings = Settings(home=home, llm=LLMSettings(endpoints={"default": endpoint}),
                        search={"embedder": "hashing"},  # type: ignore[arg-type]
                        workflows=workflows)  # type: ignore[arg-type]
    return Container(settings)


async def test_review_writes_reports_and_resumes_without_calls(
        home: Path, tmp_path: Path, mock: MockOpenAIServer) -> None:
    paper = write_paper(tmp_path)
    with _container(home, mock.base_url) as container:
        run = await review_paper(container, paper, job_id="job-7", out_dir=tmp_path / "out")
        calls = mock.request_count
        again = await review_paper(container, run.report.paper_id, job_id="job-7",
                                   out_dir=tmp_path / "again")
    assert run.status == "completed" and calls == 8  # seven roles and one support-judge call
    assert mock.request_count == calls  # finished thread: nothing re-run
    assert again.report.comments == run.report.comments
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    assert data["kind"] == "review" and data["metrics"]["attack_coverage"] == 1.0
    unverified_ids = {u["message_id"] for u in data["unverified"]}
    for comment in data["comments"]:
        assert comment["verified"] or comment["message_id"] in unverified_ids
        for evidence in comment["evidence"]:
            assert {"quote", "found", "verified", "anchor", "support"} <= set(evidence)
    assert data["usage"]["tokens_in"] > 0 and "meta" in data["usage"]["by_node"]
    assert (tmp_path / "out" / "report.html").read_text().count('class="cite') >= 6
    assert "p. " in (tmp_path / "out" / "report.md").read_text()


async def test_minimal_panel_makes_four_calls(home: Path, tmp_path: Path,
                                              mock: MockOpenAIServer) -> None:
    with _container(home, mock.base_url) as container:
        run = await review_paper(container, write_paper(tmp_path), reviewers="minimal",
                                 out_dir=tmp_path / "out")
    assert run.report.panel == ["editor", "contribution_reviewer", "experiment_reviewer", "meta"]
    assert mock.request_count == 5  # four roles and one support-judge call


def test_panel_choice_and_budget() -> None:
    paper = build_paper()
    assert "experiment_reviewer" in panel_for(paper, "minimal")
    no_experiments = paper.model_copy(update={"sections": [
        s for s in paper.sections if s.kind != "experiments" and "Ablation" not in s.title]})
    assert panel_for(no_experiments, "minimal")[2] == "methodology_reviewer"
    with pytest.raises(InputError):
        panel_for(paper, "huge")  # type: ignore[arg-type]
    from papermind.llm import build_gateway

    local = Settings()
    assert 1200 <= input_chars(local, build_gateway(local.llm)) <= 9000  # 4k-token local window
    fixed = Settings(workflows={"review_input_chars": 5000})  # type: ignore[arg-type]
    assert input_chars(fixed, build_gateway(fixed.llm)) == 5000


async def test_signoff_pauses_then_resumes_without_new_calls(
        home: Path, tmp_path: Path, mock: MockOpenAIServer) -> None:
    with _container(home, mock.base_url) as container:
        first = await review_paper(container, write_paper(tmp_path), job_id="job-s",
                                   signoff=True, out_dir=tmp_path / "a")
        calls = mock.request_count
        done = await review_paper(container, first.report.paper_id, job_id="job-s",
                                  signoff=True, resume={"approved": False, "note": "not yet"},
                                  out_dir=tmp_path / "b")
    assert first.status == "interrupted" and first.interrupt["recommendation"]
    assert done.status == "completed" and mock.request_count == calls
    assert done.report.signoff == {**done.report.signoff, "approved": False, "note": "not yet"}
