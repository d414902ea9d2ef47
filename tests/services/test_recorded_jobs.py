"""A run outside the job service (the CLI's) holds its job's lease: cancelled elsewhere, it
stops; run to the end, it is completed once and its lease is free."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

from papermind.db import Database
from papermind.domain.job import JobRequest
from papermind.errors import ConflictError
from papermind.services.job_leases import LeaseKeeper, lease_live
from papermind.services.job_store import JobStore
from papermind.services.recorded_jobs import run_recorded

REVIEW = JobRequest(kind="review", paper_id="p" * 64)


@pytest.fixture
def leases(tmp_path: Path) -> LeaseKeeper:
    return LeaseKeeper(JobStore(Database(tmp_path / "library.sqlite3")), lease_s=0.3)


def test_a_run_cancelled_elsewhere_stops_here(leases: LeaseKeeper) -> None:
    steps: list[int] = []

    async def long_run(progress: object) -> object:
        for step in range(100):
            steps.append(step)
            if step == 2:  # the web's Cancel, in another process
                leases.store.finish("j1", "cancelled", error="cancelled by the user")
            await asyncio.sleep(0.05)
        return SimpleNamespace(files=[], job_id="j1")

    with pytest.raises(ConflictError, match="was cancelled elsewhere"):
        asyncio.run(run_recorded(leases, REVIEW, "j1", long_run))
    assert len(steps) < 60, "stopped within a heartbeat or two, not run to the end"
    job = leases.store.get("j1")
    assert job.status == "cancelled" and job.error == "cancelled by the user"
    leases.close()


def test_a_finished_run_is_completed_once_and_frees_its_lease(leases: LeaseKeeper) -> None:
    async def quick(progress: object) -> object:
        assert lease_live(leases.store.get("j2")), "held while it runs"
        return SimpleNamespace(files=[], job_id="j2")

    asyncio.run(run_recorded(leases, REVIEW, "j2", quick))
    job = leases.store.get("j2")
    assert job.status == "completed" and job.attempts == 1 and not lease_live(job)
    statuses = [e.data["status"] for e in leases.store.events("j2") if e.kind == "status"]
    assert statuses == ["queued", "running", "completed"]
    leases.close()
