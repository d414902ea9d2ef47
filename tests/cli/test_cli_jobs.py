"""One job store per library: a reading run from the CLI is a job the server and the web
UI list, follow and open, and a stopped one resumes from the server."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.llm.testing import fake_gateway
from papermind.services import reading
from tests.support.cli import CliRunner
from tests.workflows.deep_reading.echo_model import echo_checker, echo_questioner, echo_reader

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"


@pytest.fixture(autouse=True)
def _example() -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")


def _server(home: Path, gateway: object = None) -> TestClient:
    return TestClient(create_app(load_settings(home), gateway=gateway), base_url="http://127.0.0.1")


def test_a_cli_reading_is_a_job_of_the_server_and_the_web(
        cli: CliRunner, monkeypatch: pytest.MonkeyPatch, home: Path, tmp_path: Path) -> None:
    gw = fake_gateway({"reader": [echo_reader()], "checker": [echo_checker("high")],
                       "questioner": [echo_questioner]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    done = cli("read", EXAMPLE, "--out", tmp_path / "out", "--json")
    assert done.code == 0, done.err
    job_id = done.json()["job_id"]
    with _server(home) as client:
        job = client.get(f"/api/jobs/{job_id}")
        assert job.status_code == 200 and job.json()["status"] == "completed"
        assert job_id in [j["id"] for j in client.get("/api/jobs").json()]
        events = client.get(f"/api/jobs/{job_id}/events").json()
        nodes = [e["node"] for e in events if e["kind"] == "node"]
        assert "deep_reader" in nodes and "questioner" in nodes
        assert client.get(f"/api/jobs/{job_id}/result").json()["job_id"] == job_id
        assert job_id[:8] in client.get("/jobs").text
        page = client.get(f"/jobs/{job_id}/report")
        assert page.status_code == 200 and 'class="cite ' in page.text


def test_a_stopped_cli_reading_resumes_from_the_server(
        cli: CliRunner, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    gw = fake_gateway({"reader": [echo_reader()], "checker": [RuntimeError("endpoint down")]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    failed = cli("read", EXAMPLE, "--job", "job-9")
    assert failed.code == 5
    server_model = fake_gateway({"checker": [echo_checker("high")],
                                 "questioner": [echo_questioner]})
    with _server(home, server_model) as client:
        job = client.get("/api/jobs/job-9").json()
        assert job["status"] == "failed" and "resume" in job["error"]
        assert "Resume" in client.get("/jobs/job-9").text
        assert client.post("/api/jobs/job-9/resume").status_code == 202
        deadline = time.monotonic() + 60
        while client.get("/api/jobs/job-9").json()["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, "the resumed job did not finish"
            time.sleep(0.1)
        assert client.get("/api/jobs/job-9").json()["status"] == "completed"
        assert server_model.calls_for(role="reader") == [], "finished steps are not repeated"
        again = client.post("/api/jobs/job-9/resume")
        assert again.status_code == 409 and "only a failed or cancelled" in again.text


def test_resuming_a_job_of_another_kind_is_refused(cli: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                   home: Path) -> None:
    gw = fake_gateway({"reader": [echo_reader()], "checker": [RuntimeError("endpoint down")]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    assert cli("read", EXAMPLE, "--job", "job-3").code == 5
    wrong = cli("review", EXAMPLE, "--job", "job-3")
    assert wrong.code == 2 and "a reading job, not a review job" in wrong.err
