"""One owner per job: a live owner's job is left to it, a gone owner's is resumed once."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from papermind.db import Database
from papermind.domain.job import Job, JobOwner, JobRequest
from papermind.services.job_leases import (
    LeaseKeeper,
    lease_live,
    owner_gone,
    process_started,
    this_process,
)
from papermind.services.job_store import JobStore
from papermind.services.jobs import JobHeld, JobOutcome, JobService

REVIEW = JobRequest(kind="review", paper_id="p" * 64)


@pytest.fixture
def store(tmp_path: Path) -> JobStore:
    return JobStore(Database(tmp_path / "library.sqlite3"))


def _exited_pid() -> JobOwner:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    started = process_started(proc.pid) or time.time()
    proc.wait()
    return this_process().model_copy(update={"pid": proc.pid, "started_at": started})


def test_this_process_is_alive_and_an_exited_one_is_gone() -> None:
    me = this_process()
    assert not owner_gone(me)
    assert owner_gone(_exited_pid())
    assert owner_gone(me.model_copy(update={"started_at": me.started_at - 3600})), \
        "an earlier process with this PID (a container's PID 1 restarted) is gone"
    assert not owner_gone(me.model_copy(update={"host": "elsewhere", "pid": 1})), \
        "an owner on another host is judged by its lease only"


def test_a_lease_is_live_while_its_owner_beats(store: JobStore) -> None:
    store.create_or_get_active("j1", REVIEW)
    assert not lease_live(store.get("j1")), "a queued job nobody took"
    assert store.take("j1", this_process(), lease_s=60)
    assert lease_live(store.get("j1"))
    assert not lease_live(store.get("j1"), now=time.time() + 61)
    gone = _exited_pid()
    store.create_or_get_active("j2", JobRequest(kind="question", question="why?"))
    assert store.take("j2", gone, lease_s=3600)
    assert not lease_live(store.get("j2")), "its owner exited: resumable at once"


def test_the_keeper_renews_and_says_when_a_lease_is_lost(store: JobStore) -> None:
    lost: list[str] = []
    keeper = LeaseKeeper(store, lease_s=0.3, on_lost=lost.append)
    job, _ = store.create_or_get_active("j1", REVIEW)
    assert keeper.take(job)
    time.sleep(0.5)
    assert lease_live(store.get("j1")), "renewed past its first 0.3 s"
    store.finish("j1", "cancelled", error="cancelled elsewhere")
    deadline = time.monotonic() + 5
    while not lost and time.monotonic() < deadline:
        time.sleep(0.05)
    assert lost == ["j1"] and not keeper.holds("j1")
    keeper.close()
    with pytest.raises(ValueError):
        LeaseKeeper(store, lease_s=0)


def _service(store: JobStore, runs: list[str], lease_s: float = 30.0) -> JobService:
    async def run(job: Job, progress: object) -> JobOutcome:
        runs.append(job.id)
        return JobOutcome(usage={"calls": 1})

    return JobService(store, {"review": run}, lease_s=lease_s)


def test_start_leaves_a_live_owners_job_and_resumes_a_gone_owners_once(
        store: JobStore) -> None:
    live = JobOwner(host="another-host", pid=1, started_at=1.0)
    store.create_or_get_active("held", REVIEW)
    store.take("held", live, lease_s=3600)
    store.mark_running("held")
    store.create_or_get_active("orphan", JobRequest(kind="review", paper_id="q" * 64))
    store.take("orphan", _exited_pid(), lease_s=3600)
    store.mark_running("orphan")
    runs: list[str] = []

    async def two_servers_start() -> tuple[list[str], list[str]]:
        first, second = _service(store, runs), _service(store, runs)
        resumed = await first.start(), await second.start()
        await asyncio.gather(first.wait("orphan", timeout=10))
        await first.stop()
        await second.stop()
        return resumed

    first, second = asyncio.run(two_servers_start())
    assert (first, second) == (["orphan"], []), "one of two starting servers resumes it"
    assert runs == ["orphan"]
    orphan, held = store.get("orphan"), store.get("held")
    assert orphan.status == "completed" and orphan.attempts == 2
    assert orphan.owner == this_process()
    assert held.status == "running" and held.owner == live and held.attempts == 1


def test_a_worker_never_runs_a_job_a_live_owner_holds(store: JobStore) -> None:
    job, _ = store.create_or_get_active("j1", REVIEW)
    store.take("j1", JobOwner(host="another-host", pid=1, started_at=1.0), lease_s=3600)
    runs: list[str] = []
    with pytest.raises(JobHeld, match="another-host pid 1"):
        asyncio.run(_service(store, runs).execute(job))
    assert runs == [] and store.get("j1").attempts == 0


def test_a_stopped_server_releases_its_jobs_for_the_next_start(store: JobStore) -> None:
    started = asyncio.Event()

    async def slow(job: Job, progress: object) -> JobOutcome:
        started.set()
        await asyncio.sleep(60)
        return JobOutcome()

    async def submit_and_stop() -> str:
        service = JobService(store, {"review": slow}, lease_s=3600)
        job, _ = service.submit(REVIEW)
        await asyncio.wait_for(started.wait(), 5)
        await service.stop()
        return job.id

    job_id = asyncio.run(submit_and_stop())
    job = store.get(job_id)
    assert job.status == "running" and job.lease_until is None and not lease_live(job)


def test_a_job_just_created_by_another_process_is_left_to_it(store: JobStore) -> None:
    """A CLI command creates its job, then takes its lease: a server sweeping in between
    leaves it; a queued job nobody took for a while is resumed."""
    store.create_or_get_active("fresh", REVIEW)
    runs: list[str] = []

    async def sweep() -> list[str]:
        service = _service(store, runs)
        resumed = await service.start()
        await service.stop()
        return resumed

    assert asyncio.run(sweep()) == [] and runs == []
    db = store.db
    db.execute("UPDATE jobs SET created_at = created_at - 60 WHERE id = 'fresh'")
    assert asyncio.run(sweep()) == ["fresh"]
