"""The job store's contract, on SQLite and on PostgreSQL (the same tests for both)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.db import Database
from papermind.domain.job import JobOwner, JobRequest
from papermind.errors import NotFoundError
from papermind.services.job_store import JobRecords, JobStore

QUESTION = JobRequest(kind="question", question="What is routed?")
REVIEW = JobRequest(kind="review", paper_id="p" * 64)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[JobRecords]:
    if request.param == "sqlite":
        db = Database(tmp_path / "library.sqlite3")
        yield JobStore(db)
        db.close()
        return
    from papermind.services.job_store_pg import PostgresJobStore

    pg = PostgresJobStore(request.getfixturevalue("pg_url"))
    yield pg
    pg.close()


def test_an_identical_unfinished_request_shares_its_job(store: JobRecords) -> None:
    job, created = store.create_or_get_active("j1", QUESTION)
    again, created_again = store.create_or_get_active("j2", QUESTION)
    assert created and not created_again and again.id == job.id == "j1"
    assert job.status == "queued" and job.request == QUESTION
    other, created_other = store.create_or_get_active("j3", REVIEW)
    assert created_other and other.id == "j3"
    assert store.finish("j1", "completed")
    fresh, created_fresh = store.create_or_get_active("j4", QUESTION)
    assert created_fresh and fresh.id == "j4", "a finished job is not reused"


def test_lifecycle_running_attempts_finish_once(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    store.mark_running("j1")
    store.mark_running("j1")
    job = store.get("j1")
    assert job.status == "running" and job.attempts == 2 and job.started_at is not None
    assert [j.id for j in store.unfinished()] == ["j1"]
    assert store.finish("j1", "failed", error="boom", usage={"calls": 3})
    assert not store.finish("j1", "completed"), "a final status is final"
    done = store.get("j1")
    assert done.status == "failed" and done.error == "boom" and done.usage == {"calls": 3}
    assert done.finished_at is not None and done.finished_at >= done.created_at
    assert store.unfinished() == []
    with pytest.raises(ValueError):
        store.finish("j1", "running")  # type: ignore[arg-type]


def test_recent_newest_first_and_by_status(store: JobRecords) -> None:
    store.create_or_get_active("old", QUESTION)
    store.create_or_get_active("new", REVIEW)
    store.finish("old", "cancelled")
    assert [j.id for j in store.recent()] == ["new", "old"]
    assert [j.id for j in store.recent(limit=1)] == ["new"]
    assert [j.id for j in store.recent(status="cancelled")] == ["old"]


def test_missing_job_is_not_found(store: JobRecords) -> None:
    with pytest.raises(NotFoundError, match="no job with id"):
        store.get("nope")


def test_events_are_numbered_and_read_after_a_seq(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    first = store.add_event("j1", "status", data={"status": "queued"})
    second = store.add_event("j1", "node", "editor", {"summary": "x", "n": 1.5})
    assert (first.seq, second.seq) == (1, 2)
    events = store.events("j1")
    assert [(e.kind, e.node, e.data) for e in events] == [
        ("status", None, {"status": "queued"}), ("node", "editor", {"summary": "x", "n": 1.5})]
    assert [e.seq for e in store.events("j1", after=1)] == [2]


def test_events_written_at_once_stay_dense(store: JobRecords) -> None:
    """A worker and an API process (a cancel) may write one job's events together."""
    store.create_or_get_active("j1", REVIEW)
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for i in range(10):
                store.add_event("j1", "node", f"n{n}-{i}")
        except BaseException as error:  # surfaced below
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [e.seq for e in store.events("j1")] == list(range(1, 41))


def test_a_second_store_on_the_same_database_sees_the_same_jobs(
        store: JobRecords, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """What a worker process sees: another handle, migrations applied once."""
    store.create_or_get_active("j1", QUESTION)
    if isinstance(store, JobStore):
        other: JobRecords = JobStore(Database(tmp_path / "library.sqlite3"))
    else:
        from papermind.services.job_store_pg import PostgresJobStore

        other = PostgresJobStore(request.getfixturevalue("pg_url"))
    assert other.get("j1").request == QUESTION
    assert other.create_or_get_active("j2", QUESTION)[0].id == "j1"


def test_report_files_travel_with_the_job_on_postgres(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    store.attach_files("j1", {"report.json": b'{"a": 1}', "report.md": b"# r"})
    store.attach_files("j1", {"report.md": b"# r2"})
    if isinstance(store, JobStore):  # embedded: the files stay in the home folder
        assert store.file("j1", "report.md") is None
        return
    assert store.file("j1", "report.md") == b"# r2"
    assert store.file("j1", "report.json") == b'{"a": 1}'
    assert store.file("j1", "report.html") is None


def test_only_a_failed_or_cancelled_job_reopens(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    assert not store.reopen("j1"), "a queued job is not reopened"
    store.mark_running("j1")
    assert store.finish("j1", "failed", error="endpoint down")
    assert store.reopen("j1")
    job = store.get("j1")
    assert job.status == "queued" and job.error is None and job.finished_at is None
    assert store.finish("j1", "completed")
    assert not store.reopen("j1"), "a completed job stays completed"


ME = JobOwner(host="host-a", pid=101, started_at=1000.0)
OTHER = JobOwner(host="host-b", pid=202, started_at=2000.0)
THIRD = JobOwner(host="host-c", pid=303, started_at=3000.0)


def test_one_owner_per_job_until_its_lease_passes(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    assert store.take("j1", ME, lease_s=60)
    assert not store.take("j1", OTHER, lease_s=60), "a live lease keeps the job its owner's"
    assert store.take("j1", ME, lease_s=60), "the owner takes its own job again (a resume)"
    job = store.get("j1")
    assert job.owner == ME and job.lease_until is not None and job.heartbeat_at is not None
    assert job.lease_until > time.time() + 50
    assert store.renew("j1", ME, lease_s=0.01) and not store.renew("j1", OTHER, lease_s=60)
    time.sleep(0.05)
    assert store.take("j1", OTHER, lease_s=60), "a passed lease is taken over"
    assert store.get("j1").owner == OTHER
    assert not store.renew("j1", ME, lease_s=60), "the old owner learns it lost the job"


def test_a_gone_owner_is_replaced_exactly_once(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    assert store.take("j1", ME, lease_s=3600)
    assert store.take("j1", OTHER, lease_s=60, replacing=ME)
    assert not store.take("j1", THIRD, lease_s=60, replacing=ME), "the second resumer loses"
    assert store.get("j1").owner == OTHER


def test_finishing_or_releasing_ends_the_lease(store: JobRecords) -> None:
    store.create_or_get_active("j1", REVIEW)
    store.create_or_get_active("j2", QUESTION)
    assert store.take("j1", ME, lease_s=3600) and store.take("j2", ME, lease_s=3600)
    store.release("j1", OTHER)
    assert not store.take("j1", OTHER, lease_s=60), "only the owner releases its lease"
    store.release("j1", ME)
    assert store.get("j1").lease_until is None and store.take("j1", OTHER, lease_s=60)
    assert store.finish("j2", "cancelled")
    done = store.get("j2")
    assert done.lease_until is None and done.owner == ME, "who ran it stays on the record"
    assert not store.renew("j2", ME, lease_s=60) and not store.take("j2", OTHER, lease_s=60)
