"""Durable job records and their progress events: the port, and its SQLite implementation.

``JobRecords`` is what the job service, the workers and the API need; ``JobStore`` keeps
them in the library's SQLite file (the embedded default), ``job_store_pg.PostgresJobStore``
on a PostgreSQL server shared by the API and any number of workers.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Protocol

from papermind.db import SqlDatabase
from papermind.domain.job import FINISHED, Job, JobEvent, JobOwner, JobRequest, JobStatus
from papermind.errors import NotFoundError

MIGRATIONS = [
    """
    CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        request TEXT NOT NULL,
        request_key TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        created_at REAL NOT NULL,
        started_at REAL,
        finished_at REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        usage TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX jobs_by_key ON jobs(request_key, status);
    CREATE TABLE job_events (
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at REAL NOT NULL,
        kind TEXT NOT NULL,
        node TEXT,
        data TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (job_id, seq)
    );
    """,
    """
    ALTER TABLE jobs ADD COLUMN owner_host TEXT;
    ALTER TABLE jobs ADD COLUMN owner_pid INTEGER;
    ALTER TABLE jobs ADD COLUMN owner_started_at REAL;
    ALTER TABLE jobs ADD COLUMN heartbeat_at REAL;
    ALTER TABLE jobs ADD COLUMN lease_until REAL;
    """,
]
OWNER_IS = "(owner_host = ? AND owner_pid = ? AND owner_started_at = ?)"
LEASE_SQL = {  # '?' placeholders; the PostgreSQL store swaps in '%s'
    "take": "UPDATE jobs SET owner_host = ?, owner_pid = ?, owner_started_at = ?,"
            " heartbeat_at = ?, lease_until = ? WHERE id = ? AND status IN ('queued', 'running')"
            f" AND (lease_until IS NULL OR lease_until < ? OR {OWNER_IS} OR {OWNER_IS})",
    "renew": "UPDATE jobs SET heartbeat_at = ?, lease_until = ? WHERE id = ?"
             f" AND status IN ('queued', 'running') AND {OWNER_IS}",
    "release": f"UPDATE jobs SET lease_until = NULL WHERE id = ? AND {OWNER_IS}",
}


def owner_params(owner: JobOwner | None) -> tuple[object, object, object]:
    """The three owner columns' values (NULLs for no owner: they match no row)."""
    return (owner.host, owner.pid, owner.started_at) if owner else (None, None, None)


def take_params(job_id: str, owner: JobOwner, lease_s: float,
                replacing: JobOwner | None) -> tuple[object, ...]:
    now = time.time()
    return (*owner_params(owner), now, now + lease_s, job_id, now, *owner_params(owner),
            *owner_params(replacing))


def renew_params(job_id: str, owner: JobOwner, lease_s: float) -> tuple[object, ...]:
    now = time.time()
    return (now, now + lease_s, job_id, *owner_params(owner))


def request_key(request: JobRequest) -> str:
    """Stable hash of a request: equal requests get equal keys."""
    canonical = json.dumps(request.model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


class JobRecords(Protocol):
    """Jobs and their events, wherever they are kept."""

    def create_or_get_active(self, job_id: str, request: JobRequest) -> tuple[Job, bool]: ...

    def get(self, job_id: str) -> Job: ...

    def recent(self, limit: int = 100, status: JobStatus | None = None) -> list[Job]: ...

    def unfinished(self) -> list[Job]: ...

    def mark_running(self, job_id: str) -> None: ...

    def take(self, job_id: str, owner: JobOwner, lease_s: float,
             replacing: JobOwner | None = None) -> bool:
        """Make ``owner`` the job's owner for ``lease_s`` seconds if no live owner holds it:
        unfinished, and its lease is free, past, ``owner``'s own, or ``replacing``'s (an owner
        found gone). Atomic: of two processes taking one job, one wins."""

    def renew(self, job_id: str, owner: JobOwner, lease_s: float) -> bool:
        """The owner's heartbeat; False when the job is no longer its to run."""

    def release(self, job_id: str, owner: JobOwner) -> None:
        """End ``owner``'s lease now (a graceful stop): the next start resumes the job."""

    def finish(self, job_id: str, status: JobStatus, *, error: str | None = None,
               usage: dict[str, Any] | None = None) -> bool: ...

    def reopen(self, job_id: str) -> bool: ...

    def add_event(self, job_id: str, kind: str, node: str | None = None,
                  data: dict[str, Any] | None = None) -> JobEvent: ...

    def events(self, job_id: str, after: int = 0) -> list[JobEvent]: ...

    def attach_files(self, job_id: str, files: dict[str, bytes]) -> None:
        """Keep a finished job's report files with the job (for API processes elsewhere)."""

    def file(self, job_id: str, name: str) -> bytes | None:
        """A file attached to the job, if the store keeps files."""


class JobStore:
    """CRUD for jobs and their events in the library's SQLite file."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate("jobs", MIGRATIONS)  # PostgreSQL: job_store_pg.PostgresJobStore

    def create_or_get_active(self, job_id: str, request: JobRequest) -> tuple[Job, bool]:
        """A new queued job, or the unfinished job with the same request (created=False)."""
        key = request_key(request)
        with self.db.transaction() as conn:
            row = conn.execute(
                "SELECT * FROM jobs WHERE request_key = ? AND status IN ('queued', 'running')"
                " ORDER BY created_at LIMIT 1", (key,)).fetchone()
            if row is not None:
                return job_from_row(row), False
            conn.execute(
                "INSERT INTO jobs(id, kind, request, request_key, status, created_at)"
                " VALUES (?, ?, ?, ?, 'queued', ?)",
                (job_id, request.kind, request.model_dump_json(), key, time.time()))
        return self.get(job_id), True

    def get(self, job_id: str) -> Job:
        rows = self.db.query("SELECT * FROM jobs WHERE id = ?", (job_id,))
        if not rows:
            raise NotFoundError(f"no job with id {job_id!r}")
        return job_from_row(rows[0])

    def recent(self, limit: int = 100, status: JobStatus | None = None) -> list[Job]:
        if status is None:
            rows = self.db.query("SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?", (limit,))
        else:
            rows = self.db.query("SELECT * FROM jobs WHERE status = ? ORDER BY created_at DESC"
                                 " LIMIT ?", (status, limit))
        return [job_from_row(r) for r in rows]

    def unfinished(self) -> list[Job]:
        rows = self.db.query("SELECT * FROM jobs WHERE status IN ('queued', 'running')"
                             " ORDER BY created_at")
        return [job_from_row(r) for r in rows]

    def mark_running(self, job_id: str) -> None:
        self.db.execute("UPDATE jobs SET status = 'running', attempts = attempts + 1,"
                        " started_at = COALESCE(started_at, ?) WHERE id = ?",
                        (time.time(), job_id))

    def finish(self, job_id: str, status: JobStatus, *, error: str | None = None,
               usage: dict[str, Any] | None = None) -> bool:
        """Set a final status unless the job already has one; returns whether it changed."""
        if status not in FINISHED:
            raise ValueError(status)
        cursor = self.db.execute(
            "UPDATE jobs SET status = ?, error = ?, finished_at = ?, usage = COALESCE(?, usage),"
            " lease_until = NULL WHERE id = ? AND status IN ('queued', 'running')",
            (status, error, time.time(), json.dumps(usage) if usage is not None else None,
             job_id))
        return cursor.rowcount > 0

    def take(self, job_id: str, owner: JobOwner, lease_s: float,
             replacing: JobOwner | None = None) -> bool:
        cursor = self.db.execute(LEASE_SQL["take"],
                                 take_params(job_id, owner, lease_s, replacing))
        return cursor.rowcount > 0

    def renew(self, job_id: str, owner: JobOwner, lease_s: float) -> bool:
        return self.db.execute(LEASE_SQL["renew"],
                               renew_params(job_id, owner, lease_s)).rowcount > 0

    def release(self, job_id: str, owner: JobOwner) -> None:
        self.db.execute(LEASE_SQL["release"], (job_id, *owner_params(owner)))

    def reopen(self, job_id: str) -> bool:
        """Queue a failed or cancelled job again (to resume it); returns whether it changed."""
        cursor = self.db.execute(
            "UPDATE jobs SET status = 'queued', error = NULL, finished_at = NULL"
            " WHERE id = ? AND status IN ('failed', 'cancelled')", (job_id,))
        return cursor.rowcount > 0

    def add_event(self, job_id: str, kind: str, node: str | None = None,
                  data: dict[str, Any] | None = None) -> JobEvent:
        with self.db.transaction() as conn:
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM job_events WHERE job_id = ?",
                               (job_id,)).fetchone()[0]
            at = time.time()
            conn.execute("INSERT INTO job_events(job_id, seq, at, kind, node, data)"
                         " VALUES (?, ?, ?, ?, ?, ?)",
                         (job_id, seq, at, kind, node, json.dumps(data or {}, default=str)))
        return JobEvent(job_id=job_id, seq=seq, at=at, kind=kind, node=node, data=data or {})

    def events(self, job_id: str, after: int = 0) -> list[JobEvent]:
        rows = self.db.query("SELECT * FROM job_events WHERE job_id = ? AND seq > ? ORDER BY seq",
                             (job_id, after))
        return [JobEvent(job_id=r["job_id"], seq=r["seq"], at=r["at"], kind=r["kind"],
                         node=r["node"], data=json.loads(r["data"])) for r in rows]

    def attach_files(self, job_id: str, files: dict[str, bytes]) -> None:
        """Nothing to do: with the embedded library the files stay in the home folder."""

    def file(self, job_id: str, name: str) -> bytes | None:
        return None


def job_from_row(row: Any) -> Job:
    """A job from its row (read by column name; SQLite and PostgreSQL alike)."""
    return Job(id=row["id"], request=JobRequest.model_validate_json(row["request"]),
               status=row["status"], error=row["error"], created_at=row["created_at"],
               started_at=row["started_at"], finished_at=row["finished_at"],
               attempts=row["attempts"], usage=json.loads(row["usage"] or "{}"),
               owner=_owner(row), heartbeat_at=row["heartbeat_at"],
               lease_until=row["lease_until"])


def _owner(row: Any) -> JobOwner | None:
    if row["owner_host"] is None:
        return None
    return JobOwner(host=row["owner_host"], pid=row["owner_pid"],
                    started_at=row["owner_started_at"])
