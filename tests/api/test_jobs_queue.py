"""The REST API on PostgreSQL with workers: submit only enqueues, a worker (another
container and home folder, as on another machine) runs the job, the API shows its status,
events, stream and result (through the job store), and a cancel through the API stops the
job on the worker."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import httpx

from papermind.api.app import create_app
from papermind.config import JobsSettings, Settings, StorageSettings, load_settings
from papermind.domain.job import Job
from papermind.services.container import Container
from papermind.services.jobs import JobOutcome
from papermind.services.worker import WorkerOptions, run_worker
from tests.api.server import serve, wait_for


def _settings(home: Path, pg_url: str) -> Settings:
    settings = load_settings(home)
    return settings.model_copy(update={"storage": StorageSettings(url=pg_url),
                                       "jobs": JobsSettings(heartbeat_s=0.5)})


class Runner:
    """Writes a report file; waits for ``release`` when given one."""

    def __init__(self, box: Container, release: threading.Event | None = None) -> None:
        self.box, self.release, self.runs = box, release, 0

    async def __call__(self, job: Job, progress: Any) -> JobOutcome:
        self.runs += 1
        progress("answer", {"event": "finished", "summary": "answered"})
        while self.release is not None and not self.release.is_set():
            await asyncio.sleep(0.05)
        folder = self.box.report_dir(job.id)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.json").write_text('{"answer": "routing"}', encoding="utf-8")
        return JobOutcome(usage={"tokens_in": 3})


def _work(settings: Settings, runner_for: Any) -> None:
    """One worker pass in its own container, home folder and event loop (a thread here)."""
    elsewhere = settings.model_copy(update={"home": settings.home_dir.parent / "worker-home"})
    with Container(elsewhere) as box:
        service = box.job_service(runners={"question": runner_for(box)}, enqueue_only=False)
        asyncio.run(run_worker(service, settings.storage_url,
                               WorkerOptions(concurrency=1, heartbeat_s=0.5),
                               reports=box.report_dir, until_idle=True))


def test_serve_enqueues_and_a_worker_runs_the_job(home: Path, pg_url: str) -> None:
    settings = _settings(home, pg_url)
    app = create_app(settings, runners={"question": lambda job, progress: None})
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
        submitted = client.post("/api/jobs", json={"kind": "question", "question": "why?"})
        assert submitted.status_code == 202
        job_id = submitted.json()["id"]
        assert client.get(f"/api/jobs/{job_id}").json()["status"] == "queued"
        runners: list[Runner] = []
        _work(settings, lambda box: runners.append(Runner(box)) or runners[-1])
        job = wait_for(client, job_id)
        assert job["status"] == "completed" and job["attempts"] == 1, job
        assert runners[0].runs == 1
        assert not (home / "reports" / job_id).exists(), "the worker wrote in its own home"
        assert client.get(f"/api/jobs/{job_id}/result").json() == {"answer": "routing"}
        assert client.get(f"/api/jobs/{job_id}/result", params={"format": "md"}
                          ).status_code == 404, "a report the worker did not write"
        kinds = [(e["kind"], e["node"]) for e in client.get(f"/api/jobs/{job_id}/events").json()]
        assert ("node", "answer") in kinds and kinds[-1] == ("status", None)
        with client.stream("GET", f"/api/jobs/{job_id}/stream") as stream:
            body = "".join(stream.iter_text())
        assert "event: node" in body and "event: end" in body and "completed" in body


def test_a_cancel_through_the_api_stops_the_job_on_its_worker(home: Path, pg_url: str) -> None:
    settings = _settings(home, pg_url)
    release = threading.Event()  # never set: only the cancel ends the run
    runners: list[Runner] = []
    app = create_app(settings, runners={"question": lambda job, progress: None})
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
        job_id = client.post("/api/jobs", json={"kind": "question", "question": "how?"}
                             ).json()["id"]
        worker = threading.Thread(target=_work, args=(
            settings, lambda box: runners.append(Runner(box, release)) or runners[-1]))
        worker.start()
        for _ in range(600):
            if runners and runners[0].runs:
                break
            threading.Event().wait(0.05)
        assert runners and runners[0].runs == 1, "the worker took the job"
        assert client.post(f"/api/jobs/{job_id}/cancel").json()["status"] == "cancelled"
        worker.join(timeout=30)
        assert not worker.is_alive(), "the worker stopped the cancelled run and went idle"
        assert client.get(f"/api/jobs/{job_id}").json()["status"] == "cancelled"
