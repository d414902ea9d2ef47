"""One owner per job: `papermind serve` started while a CLI `review` runs leaves the job to
the CLI (the server's model is never called, attempts 1, one report); when that CLI is
killed, the running server resumes the job exactly once, to the same report.

The CLI and the server are real subprocesses on one home; each has its own mock model.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.db import Database
from papermind.llm.testing import MockOpenAIServer
from papermind.services.job_store import JobStore
from tests.api.crash_harness import (
    JOB_TIMEOUT_S,
    RunOutcome,
    ServerProcess,
    comparable,
    finished_nodes,
    uninterrupted_run,
    wait_done,
)
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper

LATENCY_S = 0.4
pytestmark = pytest.mark.slow  # two subprocesses and a full panel run, about 30 s each
SLOW_S = 3.0
LEASE = {"PAPERMIND_JOBS__LEASE_S": "3"}


@pytest.fixture
def models() -> Iterator[tuple[MockOpenAIServer, MockOpenAIServer]]:
    with MockOpenAIServer(responder=panel_responder, latency_s=LATENCY_S) as cli_model, \
            MockOpenAIServer(responder=panel_responder, latency_s=LATENCY_S) as server_model:
        yield cli_model, server_model


def _cli_review(work: Path, model: MockOpenAIServer, job_id: str) -> subprocess.Popen[bytes]:
    env = ServerProcess(work / "home", model.base_url, work / "x.log", env=LEASE).env
    with (work / "cli.log").open("ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "papermind", "review", str(write_paper(work)), "--job",
             job_id, "--out", str(work / "out")], env=env, stdout=log, stderr=subprocess.STDOUT)


def _wait_for_node(work: Path, job_id: str, proc: subprocess.Popen[bytes]) -> None:
    """Until the CLI's job has finished its first node (the editor)."""
    deadline = time.monotonic() + JOB_TIMEOUT_S
    while True:
        assert proc.poll() is None, (work / "cli.log").read_text()
        path = work / "home" / "library.sqlite3"
        if path.exists():
            db = Database(path)
            try:
                events = [e.model_dump() for e in JobStore(db).events(job_id)]
            except Exception:  # the job (or its tables) not written yet
                events = []
            finally:
                db.close()
            if finished_nodes(events):
                return
        assert time.monotonic() < deadline, "the CLI's review never started"
        time.sleep(0.05)


def _statuses(events: list[dict[str, object]]) -> list[object]:
    return [e["data"]["status"] for e in events if e["kind"] == "status"]  # type: ignore[index]


def test_serve_started_during_a_cli_review_leaves_the_job_to_the_cli(
        models: tuple[MockOpenAIServer, MockOpenAIServer], tmp_path: Path) -> None:
    cli_model, server_model = models
    cli_model.latency_s = SLOW_S  # the CLI's review outlasts the server's start
    cli = _cli_review(tmp_path, cli_model, "cli-job")
    server = ServerProcess(tmp_path / "home", server_model.base_url, tmp_path / "server.log",
                           env=LEASE)
    try:
        _wait_for_node(tmp_path, "cli-job", cli)
        server.start()
        with server.client() as client:
            live = client.get("/api/jobs/cli-job").json()
            assert live["status"] == "running" and live["owner"]["pid"] == cli.pid
            assert f"pid {cli.pid}" in client.get("/jobs/cli-job").text, "the page says who"
            assert cli.wait(timeout=JOB_TIMEOUT_S) == 0, (tmp_path / "cli.log").read_text()
            time.sleep(2)  # a sweep or two of the server, had it wanted the job
            job = client.get("/api/jobs/cli-job").json()
            events = client.get("/api/jobs/cli-job/events").json()
    finally:
        cli.kill()
        server.stop()
    assert server_model.requests == [], "the server's model was never called"
    assert job["status"] == "completed" and job["attempts"] == 1
    assert _statuses(events) == ["queued", "running", "completed"], "one run, one report"
    reports = sorted(p.name for p in (tmp_path / "home" / "reports" / "cli-job").iterdir())
    assert reports.count("report.json") == 1
    kept = tmp_path / "home" / "reports" / "cli-job" / "report.json"
    assert json.loads(kept.read_text()) == json.loads((tmp_path / "out" / "report.json")
                                                      .read_text()), "nobody overwrote it"


def test_a_killed_cli_review_is_resumed_once_by_the_running_server(
        models: tuple[MockOpenAIServer, MockOpenAIServer], tmp_path: Path) -> None:
    cli_model, server_model = models
    reference: RunOutcome = uninterrupted_run(tmp_path / "reference", cli_model)
    cli_model.reset()
    server = ServerProcess(tmp_path / "home", server_model.base_url, tmp_path / "server.log",
                           env=LEASE).start()
    cli = _cli_review(tmp_path, cli_model, "cli-job")
    try:
        _wait_for_node(tmp_path, "cli-job", cli)
        cli.send_signal(signal.SIGKILL)
        cli.wait(timeout=30)
        with server.client() as client:
            job = wait_done(client, "cli-job")
            report = client.get("/api/jobs/cli-job/result").json()
            events = client.get("/api/jobs/cli-job/events").json()
    finally:
        server.stop()
    assert job["status"] == "completed" and job["attempts"] == 2, job
    assert _statuses(events) == ["queued", "running", "running", "completed"]
    assert "editor" not in [n for n in finished_nodes(events)][1:], "the editor ran once"
    assert comparable(report) == comparable(reference.report)
    assert server_model.requests, "the server finished it with its own model"
