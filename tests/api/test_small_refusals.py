"""Small hostile-input fixes: refused up front with a 4xx instead of a 500 or a 202 that fails
later; a budget stop reports its tokens; a reconnecting SSE client resumes after the last
event it saw."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.domain.job import Job
from papermind.errors import BudgetExceededError
from papermind.services.jobs import JobOutcome
from tests.api.server import serve, wait_for

USED = {"tokens_in": 900, "tokens_out": 350, "calls": 4}


async def _two_events_then_done(job: Job, progress: Any) -> JobOutcome:
    progress("first", {"event": "finished"})
    progress("second", {"event": "finished"})
    return JobOutcome(usage={"calls": 2})


async def _over_budget(job: Job, progress: Any) -> JobOutcome:
    progress("reader", {"event": "finished"})
    raise BudgetExceededError("job used 1250 tokens, over its budget of 1000", usage=USED)


@pytest.fixture
def client(home: Path) -> Iterator[httpx.Client]:
    runners = {"question": _two_events_then_done, "review": _over_budget}
    with serve(create_app(load_settings(home), runners=runners)) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        yield client


def test_a_huge_offset_is_a_422_not_a_500(client: httpx.Client) -> None:
    response = client.get("/api/papers", params={"offset": 10**30})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")


def test_an_over_long_question_is_refused_before_it_is_queued(client: httpx.Client) -> None:
    response = client.post("/api/jobs", json={"kind": "question", "question": "why? " * 500})
    assert response.status_code == 422, response.text
    assert client.get("/api/jobs").json() == []


def test_a_follow_up_of_an_unknown_job_is_refused_before_it_is_queued(
        client: httpx.Client) -> None:
    response = client.post("/api/jobs", json={"kind": "question", "question": "And then?",
                                              "follows": "0123456789abcdef"})
    assert response.status_code == 404, response.text
    assert client.get("/api/jobs").json() == []


def test_a_job_stopped_by_its_budget_reports_the_tokens_it_used(client: httpx.Client,
                                                                 home: Path) -> None:
    paper = client.post("/api/papers", files={"file": ("p.md", b"# A paper\n\nSome text.\n")})
    submitted = client.post("/api/jobs", json={"kind": "review", "paper_id": paper.json()["id"]})
    job = wait_for(client, submitted.json()["id"])
    assert job["status"] == "failed" and "budget" in str(job["error"])
    usage = job["usage"]
    assert isinstance(usage, dict) and usage["tokens_in"] == 900 and usage["calls"] == 4


def test_sse_resumes_after_last_event_id(client: httpx.Client) -> None:
    job_id = client.post("/api/jobs", json={"kind": "question", "question": "What?"}).json()["id"]
    wait_for(client, job_id)
    with client.stream("GET", f"/api/jobs/{job_id}/stream") as stream:
        everything = "".join(stream.iter_text())
    ids = [int(line[4:]) for line in everything.splitlines() if line.startswith("id: ")]
    assert len(ids) >= 4
    seen = ids[1]
    with client.stream("GET", f"/api/jobs/{job_id}/stream",
                       headers={"Last-Event-ID": str(seen)}) as stream:
        resumed = "".join(stream.iter_text())
    again = [int(line[4:]) for line in resumed.splitlines() if line.startswith("id: ")]
    assert again == [i for i in ids if i > seen]
    assert "event: end" in resumed
