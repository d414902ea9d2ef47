"""SIGTERM to a `papermind worker`: it takes no more jobs; a running job gets
jobs.shutdown_timeout seconds to finish, else it goes back on the queue and another worker
resumes it from its checkpoint (completed nodes are not run again)."""

from __future__ import annotations

import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from papermind.domain.job import JobRequest
from papermind.llm.testing import MockOpenAIServer
from papermind.services.container import Container
from tests.api.crash_harness import finished_nodes, node_of
from tests.support.workers import Worker, running_worker_pid, settings_for, wait_until, worker_env
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper

LATENCY_S = 0.5


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder, latency_s=LATENCY_S) as server:
        yield server


def _queue_status(pg_url: str, job_id: str) -> list[str]:
    import psycopg

    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT status FROM procrastinate_jobs WHERE args->>'job_id' = %s",
                            (job_id,)).fetchall()
    return [str(r[0]) for r in rows]


def _stop(worker: Worker, meanwhile: Callable[[], object] = lambda: None) -> tuple[int, float]:
    """SIGTERM, then ``meanwhile()``; the exit code and how long the worker took to exit."""
    assert worker.proc is not None
    started = time.monotonic()
    worker.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    meanwhile()
    code = worker.wait_or_dump(90)
    return code, time.monotonic() - started


def test_sigterm_releases_a_job_past_the_timeout_and_finishes_one_within_it(
        pg_url: str, mock: MockOpenAIServer, tmp_path: Path) -> None:
    env = worker_env(tmp_path / "home", pg_url, mock.base_url)
    log = tmp_path / "workers.log"
    with Container(settings_for(env)) as box:
        added = box.library.add_file(write_paper(tmp_path))
        service = box.job_service()
        job, _ = service.submit(JobRequest(kind="review", paper_id=added.paper_id))
        store = box.job_store
        first = Worker({**env, "PAPERMIND_JOBS__SHUTDOWN_TIMEOUT": "0.5"}, log).start()
        second = Worker({**env, "PAPERMIND_JOBS__SHUTDOWN_TIMEOUT": "60"}, log, concurrency=2)
        later = JobRequest(kind="question", question="taken by a stopping worker?")
        try:
            wait_until(lambda: "editor" in finished_nodes(_events(store, job.id)), "the editor")
            assert running_worker_pid(pg_url, job.id) == first.pid
            code, took = _stop(first)
            assert code == 0 and took < 30, (code, took, log.read_text(errors="replace")[-2000:])
            assert store.get(job.id).status == "running", "released, not failed or finished"
            assert _queue_status(pg_url, job.id) == ["todo"], "back on the queue"
            second.start()
            wait_until(lambda: running_worker_pid(pg_url, job.id) == second.pid, "the resume")
            code, _ = _stop(second, lambda: service.submit(later))
        finally:
            first.kill()
            second.kill()
        assert code == 0, log.read_text(errors="replace")[-2000:]
        assert store.get(job.id).status == "completed", "finished within the timeout"
        assert [j.status for j in store.recent() if j.request.kind == "question"] == ["queued"], \
            "a stopping worker takes no new job (it had a free slot)"
    calls = Counter(node_of(r) for r in mock.requests)
    assert calls["editor"] == 1, calls


def _events(store: object, job_id: str) -> list[dict[str, object]]:
    return [e.model_dump(mode="json") for e in store.events(job_id)]  # type: ignore[attr-defined]
