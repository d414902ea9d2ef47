"""Crash test: SIGKILL `papermind serve` mid-review, restart, the job finishes the same.

The mock model server runs here (its request log survives the kill); the API server is a
real subprocess. bench/crash_resume.py repeats this ten times at different kill points.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.api.crash_harness import RunOutcome, check, crash_run, uninterrupted_run
from tests.workflows.review.panel_mock import panel_responder

LATENCY_S = 0.4


@pytest.fixture(scope="module")
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder, latency_s=LATENCY_S) as server:
        yield server


@pytest.fixture(scope="module")
def reference(mock: MockOpenAIServer, tmp_path_factory: pytest.TempPathFactory) -> RunOutcome:
    return uninterrupted_run(tmp_path_factory.mktemp("crash"), mock)


def test_reference_run_calls_each_node_once(reference: RunOutcome) -> None:
    assert reference.job["status"] == "completed"
    assert sorted(reference.calls_per_node().values()) == [1] * 8  # 7 roles + support judge
    assert reference.report["kind"] == "review" and reference.report["comments"]


def test_killed_mid_review_resumes_to_the_same_report(
        mock: MockOpenAIServer, reference: RunOutcome, tmp_path: Path) -> None:
    # killed while the reviewers are in flight (the editor has finished)
    crashed = crash_run(tmp_path, mock, after_nodes=1, delay_s=LATENCY_S / 2)
    assert check(reference, crashed) == []
    assert crashed.completed_before_kill[0] == "editor"
    assert crashed.calls_per_node()["editor"] == 1, "the finished editor was not called again"
    assert crashed.job["usage"], "the resumed job records usage"
    # usage spans both attempts: the editor's call, made before the kill, is counted
    assert crashed.report["usage"]["by_node"]["editor"]["calls"] >= 1
    assert crashed.report["usage"]["tokens_in"] >= reference.report["usage"]["tokens_in"]


def test_a_budget_spans_the_kill_and_the_resume(
        mock: MockOpenAIServer, reference: RunOutcome, tmp_path: Path) -> None:
    """A budget the uninterrupted run exceeds is exceeded by the killed-and-resumed run too."""
    used = reference.report["usage"]["tokens_in"] + reference.report["usage"]["tokens_out"]
    budget = {"PAPERMIND_LLM__JOB_TOKEN_BUDGET": str(used - 1)}
    crashed = crash_run(tmp_path, mock, after_nodes=4, delay_s=LATENCY_S / 2, env=budget)
    assert crashed.job["status"] == "failed", crashed.job
    assert "over its budget" in crashed.job["error"]
