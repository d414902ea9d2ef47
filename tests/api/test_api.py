"""The REST API through a real HTTP server, with a scripted fake model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.api.security import check_bind
from papermind.config import ApiSettings, JobsSettings, StorageSettings, load_settings
from papermind.domain.job import Job
from papermind.errors import ConfigError
from papermind.llm.testing import fake_gateway
from papermind.services.jobs import JobOutcome
from tests.api.server import serve, wait_for
from tests.support.reading_script import (
    PAPER_MD,
    checker_answer,
    questions_answer,
    reader_answer,
)

pytestmark = pytest.mark.usefixtures("both_backends")  # SQLite and PostgreSQL



def _settings(home: Path, backend: dict[str, Any] | None = None, **api: Any) -> Any:
    settings = load_settings(home)
    return settings.model_copy(update={"api": ApiSettings(**api), **(backend or {})})


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Settings of each job backend: the library file, or a PostgreSQL job store and
    checkpointer with the jobs still run by the API process (tests/api/test_jobs_queue.py
    runs them on a worker)."""
    if request.param == "sqlite":
        return {}
    return {"storage": StorageSettings(url=request.getfixturevalue("pg_url")),
            "jobs": JobsSettings(runner="in_process")}


@pytest.fixture
def reading_server(home: Path, backend: dict[str, Any]) -> Iterator[httpx.Client]:
    gateway = fake_gateway({"reader": [reader_answer()], "checker": [checker_answer("high")],
                            "questioner": [questions_answer(["m1"])]})
    with serve(create_app(_settings(home, backend), gateway=gateway)) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        yield client


def _upload(client: httpx.Client, name: str, data: bytes) -> httpx.Response:
    return client.post("/api/papers", files={"file": (name, data, "application/octet-stream")})


def test_upload_list_get_delete(reading_server: httpx.Client) -> None:
    created = _upload(reading_server, "paper.md", PAPER_MD.encode())
    assert created.status_code == 201, created.text
    paper_id = created.json()["id"]
    assert _upload(reading_server, "again.md", PAPER_MD.encode()).json()["status"] == "exists"
    listed = reading_server.get("/api/papers").json()
    assert [p["id"] for p in listed] == [paper_id]
    got = reading_server.get(f"/api/papers/{paper_id[:10]}").json()
    assert got["paper"]["title"].startswith("Sparse Mixture Routing")
    assert got["paper"]["pages"][0]["lines"][0]["n"] == 1
    assert reading_server.delete(f"/api/papers/{paper_id}").status_code == 200
    missing = reading_server.get(f"/api/papers/{paper_id}")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    assert missing.json()["status"] == 404 and "Traceback" not in missing.text


def test_the_list_pages_through_a_large_library(reading_server: httpx.Client) -> None:
    ids = [_upload(reading_server, f"p{n}.md", f"# Paper {n}\n\nText {n}.\n".encode())
           .json()["id"] for n in range(3)]
    first = reading_server.get("/api/papers", params={"limit": 2})
    assert first.headers["X-Total-Count"] == "3"
    assert [p["id"] for p in first.json()] == ids[::-1][:2]  # newest first
    rest = reading_server.get("/api/papers", params={"limit": 2, "offset": 2}).json()
    assert [p["id"] for p in rest] == [ids[0]]
    bad = reading_server.get("/api/papers", params={"offset": -1})
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("application/problem")


def test_wrong_type_and_oversized_uploads_are_rejected(home: Path) -> None:
    app = create_app(_settings(home, max_upload_mb=0.01))
    with serve(app) as base, httpx.Client(base_url=base) as client:
        junk = _upload(client, "paper.pdf", bytes(range(256)) * 8)
        assert junk.status_code == 415, junk.text
        big = _upload(client, "paper.md", b"# Big\n\n" + b"word " * 5000)
        assert big.status_code == 413
        empty = _upload(client, "paper.md", b"")
        assert empty.status_code == 400
        broken = _upload(client, "paper.pdf", b"%PDF-1.7\n1 0 obj\n<<")
        assert broken.status_code == 422
        for response in (junk, big, empty, broken):
            assert response.headers["content-type"].startswith("application/problem+json")
        assert client.get("/api/papers").json() == []


def test_reading_job_lifecycle_result_and_events(reading_server: httpx.Client) -> None:
    paper_id = _upload(reading_server, "paper.md", PAPER_MD.encode()).json()["id"]
    submitted = reading_server.post("/api/jobs", json={"kind": "reading", "paper_id": paper_id})
    assert submitted.status_code == 202 and submitted.headers["location"].startswith("/api/jobs/")
    job = wait_for(reading_server, submitted.json()["id"])
    assert job["status"] == "completed", job
    report = reading_server.get(f"/api/jobs/{job['id']}/result").json()
    assert report["paper_id"] == paper_id
    md = reading_server.get(f"/api/jobs/{job['id']}/result", params={"format": "md"})
    assert md.headers["content-type"].startswith("text/markdown") and "p. " in md.text
    html = reading_server.get(f"/api/jobs/{job['id']}/result", params={"format": "html"})
    assert 'class="cite' in html.text
    events = reading_server.get(f"/api/jobs/{job['id']}/events").json()
    nodes = [e["node"] for e in events
             if e["kind"] == "node" and e["data"].get("event") == "finished"]
    assert nodes[:3] == ["context_loader", "deep_reader", "hallucination_checker"]
    assert events[-1]["data"]["status"] == "completed"
    with reading_server.stream("GET", f"/api/jobs/{job['id']}/stream") as stream:
        body = "".join(stream.iter_text())
    assert "event: node" in body and "event: end" in body and "questioner" in body
    assert job["usage"], "per-job token usage is recorded"


def test_bad_job_requests_are_problems(reading_server: httpx.Client) -> None:
    no_paper = reading_server.post("/api/jobs", json={"kind": "reading"})
    assert no_paper.status_code == 422
    unknown = reading_server.post("/api/jobs", json={"kind": "review", "paper_id": "feedbeef"})
    assert unknown.status_code == 404
    assert reading_server.get("/api/jobs/nope").status_code == 404


class SlowRunner:
    """A runner that waits until released; counts its starts."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.starts = 0

    async def __call__(self, job: Job, progress: Any) -> JobOutcome:
        self.starts += 1
        progress("thinking", {"event": "finished"})
        await self.release.wait()
        return JobOutcome(usage={"tokens_in": 1})


def test_duplicate_submission_shares_the_job_and_cancel_stops_it(
        home: Path, backend: dict[str, Any]) -> None:
    runner = SlowRunner()
    app = create_app(_settings(home, backend), runners={"question": runner})
    with serve(app) as base, httpx.Client(base_url=base) as client:
        body = {"kind": "question", "question": "What is routing?"}
        first = client.post("/api/jobs", json=body).json()
        second = client.post("/api/jobs", json=body).json()
        assert first["id"] == second["id"] and second["created"] is False
        cancelled = client.post(f"/api/jobs/{first['id']}/cancel").json()
        assert cancelled["status"] == "cancelled"
        again = client.post(f"/api/jobs/{first['id']}/cancel")
        assert again.status_code == 409
        third = client.post("/api/jobs", json=body).json()
        assert third["id"] != first["id"], "a finished job is not reused"
        result = client.get(f"/api/jobs/{first['id']}/result")
        assert result.status_code == 409
        client.post(f"/api/jobs/{third['id']}/cancel")


def test_token_required_when_set(home: Path) -> None:
    app = create_app(_settings(home, token="s3cret"))
    with serve(app) as base, httpx.Client(base_url=base) as client:
        denied = client.get("/api/papers")
        assert denied.status_code == 401
        assert json.loads(denied.text)["status"] == 401
        assert client.get("/health").status_code == 200
        ok = client.get("/api/papers", headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200
        wrong = client.get("/api/papers", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401


def test_listening_off_loopback_needs_a_token() -> None:
    with pytest.raises(ConfigError, match="token"):
        check_bind("0.0.0.0", None)
    check_bind("0.0.0.0", "t")
    check_bind("127.0.0.1", None)
    check_bind("::1", None)
