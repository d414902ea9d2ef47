"""A long job through `papermind mcp` (stdio and streamable HTTP): a review of a paper by
the mock model server's scripted panel, one progress notification per finished step, then
its report; and the job tools' errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.mcp.harness import TRANSPORTS, connect, data, server_env, text
from tests.support.cli import CliRunner
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper

LATENCY_S = 0.2


@pytest.fixture(scope="module")
def model() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder, latency_s=LATENCY_S) as server:
        yield server


def model_env(home: Path, model: MockOpenAIServer) -> dict[str, str]:
    return server_env(home, PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL=model.base_url,
                      PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL="mock-model",
                      PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY="k",
                      PAPERMIND_LLM__ENDPOINTS__DEFAULT__TIMEOUT_S="60")


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_review_job_reports_progress_then_its_report(
        transport: str, cli: CliRunner, home: Path, tmp_path: Path,
        model: MockOpenAIServer) -> None:
    added = cli("add", write_paper(tmp_path), "--json")
    paper_id = added.json()[0]["paper_id"]
    progress: list[tuple[float, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, message))

    async with connect(transport, model_env(home, model)) as client:
        started = data(await client.call_tool("start_job", {
            "kind": "review", "paper_id": paper_id[:12], "reviewers": "minimal"}))
        assert started["status"] in ("queued", "running") and started["paper_id"] == paper_id
        job = data(await client.call_tool("job_status", {"job_id": started["job_id"],
                                                         "wait_s": 55},
                                          progress_callback=on_progress))
        assert job["status"] == "completed", job
        assert job["formats"] == ["md", "json", "html"]
        assert job["recommendation"].startswith("major revision (confidence 0.60)"), \
            "the recommendation as every interface shows it"
        # one notification per finished step, in order, naming the step
        assert len(progress) == len(job["steps_done"]) >= 4
        assert [p[0] for p in progress] == list(range(1, len(progress) + 1))
        assert progress[0][1] and progress[0][1].startswith(job["steps_done"][0] + " done")

        report = data(await client.call_tool("get_report", {"job_id": job["job_id"]}))
        assert report["format"] == "md" and "Zebraformer" in report["text"]
        assert not report["truncated"]
        unknown = await client.call_tool("job_status", {"job_id": "nosuchjob"})
        assert unknown.is_error and "not found" in text(unknown)
