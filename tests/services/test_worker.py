"""Workers on PostgreSQL: serve only enqueues; a SIGKILLed worker's review finishes on another
worker with the same report, and no completed node's model call is made again."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.domain.job import JobRequest
from papermind.llm.testing import MockOpenAIServer
from papermind.services.container import Container
from papermind.services.job_store import JobRecords
from tests.api.crash_harness import (
    RunOutcome,
    _before_resume,
    check,
    finished_nodes,
    uninterrupted_run,
)
from tests.support.workers import Worker, running_worker_pid, settings_for, wait_until, worker_env
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper

LATENCY_S = 0.4


@pytest.fixture(scope="module")
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder, latency_s=LATENCY_S) as server:
        yield server


def test_on_postgres_submit_only_enqueues(pg_url: str, tmp_path: Path) -> None:
    import psycopg

    settings = settings_for(worker_env(tmp_path / "home", pg_url, "http://127.0.0.1:9/v1"))
    with Container(settings) as box:
        service = box.job_service(runners={"question": _never})
        job, created = service.submit(JobRequest(kind="question", question="why?"))
        assert created and service.queue is not None
        assert asyncio.run(service.start()) == [job.id], "serve re-enqueues queued jobs"
        asyncio.run(service.stop())
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT args->>'job_id', status FROM procrastinate_jobs").fetchall()
    assert rows == [(job.id, "todo")], "one queue entry (the re-enqueue was deduplicated)"


def test_the_embedded_default_runs_jobs_in_process(tmp_path: Path) -> None:
    settings = settings_for(worker_env(tmp_path / "home", "", "http://127.0.0.1:9/v1"))
    with Container(settings.model_copy(update={"storage": settings.storage.model_copy(
            update={"url": None})})) as box:
        assert box.storage_backend.name == "sqlite" and box.storage_backend.job_queue is None
        assert box.job_service(runners={"question": _never}).queue is None


async def _never(job: object, progress: object) -> object:
    raise AssertionError("an enqueue-only service ran a job")


def test_a_killed_workers_review_finishes_on_another_worker(
        pg_url: str, mock: MockOpenAIServer, tmp_path: Path) -> None:
    reference = uninterrupted_run(tmp_path / "reference", mock)
    mock.reset()
    env = worker_env(tmp_path / "home", pg_url, mock.base_url)
    log = tmp_path / "workers.log"
    with Container(settings_for(env)) as box:
        added = box.library.add_file(write_paper(tmp_path))
        assert added.paper_id, added
        service = box.job_service()
        job, _ = service.submit(JobRequest(kind="review", paper_id=added.paper_id))
        store = box.job_store
        first, second = Worker(env, log).start(), Worker(env, log).start()
        try:
            # kill whichever took the job while the three reviewers are in flight
            wait_until(lambda: "editor" in finished_nodes(_events(store, job.id)), "the editor")
            time.sleep(LATENCY_S / 2)
            holder = running_worker_pid(pg_url, job.id)
            victim, survivor = (first, second) if holder == first.pid else (second, first)
            assert holder == victim.pid, (holder, first.pid, second.pid)
            victim.kill()
            wait_until(lambda: store.get(job.id).finished, "the job to finish", every=0.2)
            assert running_worker_pid(pg_url, job.id) in (None, survivor.pid)
        finally:
            first.kill()
            second.kill()
        final = store.get(job.id)
        events = [e.model_dump(mode="json") for e in store.events(job.id)]
    report_path = tmp_path / "home" / "reports" / job.id / "report.json"
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
    crashed = RunOutcome(final.model_dump(mode="json"), report, list(mock.requests), events,
                         killed=True)
    crashed.completed_before_kill = _before_resume(events)
    assert check(reference, crashed) == [], log.read_text(errors="replace")[-3000:]
    assert crashed.calls_per_node()["editor"] == 1


def _events(store: JobRecords, job_id: str) -> list[dict[str, object]]:
    return [e.model_dump(mode="json") for e in store.events(job_id)]
