"""Jobs and their progress events in PostgreSQL: ``JobStore``'s contract for many processes.

The API and every worker share these rows. Two submits of the same request from two API
processes still give one job (an advisory lock on the request key), and event numbers stay
dense when a worker and an API process (a cancel) write events of one job at once (the job
row is locked while the next number is taken). Needs psycopg 3 (the ``postgres`` extra).
"""

from __future__ import annotations

import json
import time
from typing import Any

from papermind.domain.job import FINISHED, Job, JobEvent, JobOwner, JobRequest, JobStatus
from papermind.errors import ConfigError, NotFoundError
from papermind.services.job_store import (
    LEASE_SQL,
    job_from_row,
    owner_params,
    renew_params,
    request_key,
    take_params,
)

MIGRATION_LOCK = 0x7061706572  # the library's schema lock (pgdb): one schema change at a time
MIGRATIONS = [
    """
    CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        request TEXT NOT NULL,
        request_key TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        started_at DOUBLE PRECISION,
        finished_at DOUBLE PRECISION,
        attempts INTEGER NOT NULL DEFAULT 0,
        usage TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX jobs_by_key ON jobs(request_key, status);
    CREATE INDEX jobs_by_created ON jobs(created_at);
    CREATE TABLE job_events (
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        kind TEXT NOT NULL,
        node TEXT,
        data TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (job_id, seq)
    );
    """,
    """
    CREATE TABLE job_files (
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        content BYTEA NOT NULL,
        PRIMARY KEY (job_id, name)
    );
    """,
    """
    ALTER TABLE jobs ADD COLUMN owner_host TEXT, ADD COLUMN owner_pid INTEGER,
        ADD COLUMN owner_started_at DOUBLE PRECISION, ADD COLUMN heartbeat_at DOUBLE PRECISION,
        ADD COLUMN lease_until DOUBLE PRECISION;
    """,
]
UNFINISHED = "status IN ('queued', 'running')"
PG_LEASE_SQL = {name: sql.replace("?", "%s") for name, sql in LEASE_SQL.items()}


class PostgresJobStore:
    """CRUD for jobs and their events on a PostgreSQL server (a small connection pool)."""

    def __init__(self, url: str, *, max_connections: int = 4) -> None:
        try:
            from psycopg.rows import dict_row
            from psycopg_pool import ConnectionPool
        except ImportError as error:
            raise ConfigError("storage.url is a PostgreSQL URL but psycopg is not installed",
                              hint="pip install 'papermind[postgres]'") from error
        self.pool: Any = ConnectionPool(url, min_size=1, max_size=max_connections, open=False,
                                   kwargs={"autocommit": True, "row_factory": dict_row})
        try:
            self.pool.open(wait=True, timeout=15)
        except Exception as error:
            raise ConfigError(f"cannot connect to the PostgreSQL job store: {error}",
                              hint="check storage.url and that the server is running") from error
        self._migrate()

    def _migrate(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_migrations WHERE component = 'jobs'"
                               ).fetchone()
            current = int(row["version"]) if row else 0
            for script in MIGRATIONS[current:]:
                conn.execute(script)
            conn.execute("INSERT INTO schema_migrations(component, version) VALUES ('jobs', %s)"
                         " ON CONFLICT (component) DO UPDATE SET version = excluded.version",
                         (max(current, len(MIGRATIONS)),))

    def close(self) -> None:
        self.pool.close()

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self.pool.connection() as conn:
            return list(conn.execute(sql, params).fetchall())

    def create_or_get_active(self, job_id: str, request: JobRequest) -> tuple[Job, bool]:
        """A new queued job, or the unfinished job with the same request (created=False)."""
        key = request_key(request)
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (key,))
            row = conn.execute(f"SELECT * FROM jobs WHERE request_key = %s AND {UNFINISHED}"
                               " ORDER BY created_at LIMIT 1", (key,)).fetchone()
            if row is not None:
                return job_from_row(row), False
            conn.execute("INSERT INTO jobs(id, kind, request, request_key, status, created_at)"
                         " VALUES (%s, %s, %s, %s, 'queued', %s)",
                         (job_id, request.kind, request.model_dump_json(), key, time.time()))
        return self.get(job_id), True

    def get(self, job_id: str) -> Job:
        rows = self._rows("SELECT * FROM jobs WHERE id = %s", (job_id,))
        if not rows:
            raise NotFoundError(f"no job with id {job_id!r}")
        return job_from_row(rows[0])

    def recent(self, limit: int = 100, status: JobStatus | None = None) -> list[Job]:
        if status is None:
            rows = self._rows("SELECT * FROM jobs ORDER BY created_at DESC LIMIT %s", (limit,))
        else:
            rows = self._rows("SELECT * FROM jobs WHERE status = %s ORDER BY created_at DESC"
                              " LIMIT %s", (status, limit))
        return [job_from_row(r) for r in rows]

    def unfinished(self) -> list[Job]:
        return [job_from_row(r) for r in self._rows(
            f"SELECT * FROM jobs WHERE {UNFINISHED} ORDER BY created_at")]

    def mark_running(self, job_id: str) -> None:
        with self.pool.connection() as conn:
            conn.execute("UPDATE jobs SET status = 'running', attempts = attempts + 1,"
                         " started_at = COALESCE(started_at, %s) WHERE id = %s",
                         (time.time(), job_id))

    def finish(self, job_id: str, status: JobStatus, *, error: str | None = None,
               usage: dict[str, Any] | None = None) -> bool:
        """Set a final status unless the job already has one; returns whether it changed."""
        if status not in FINISHED:
            raise ValueError(status)
        with self.pool.connection() as conn:
            cursor = conn.execute(
                "UPDATE jobs SET status = %s, error = %s, finished_at = %s, lease_until = NULL,"
                f" usage = COALESCE(%s, usage) WHERE id = %s AND {UNFINISHED}",
                (status, error, time.time(), json.dumps(usage) if usage is not None else None,
                 job_id))
            return cursor.rowcount > 0

    def take(self, job_id: str, owner: JobOwner, lease_s: float,
             replacing: JobOwner | None = None) -> bool:
        return self._changed(PG_LEASE_SQL["take"], take_params(job_id, owner, lease_s, replacing))

    def renew(self, job_id: str, owner: JobOwner, lease_s: float) -> bool:
        return self._changed(PG_LEASE_SQL["renew"], renew_params(job_id, owner, lease_s))

    def release(self, job_id: str, owner: JobOwner) -> None:
        self._changed(PG_LEASE_SQL["release"], (job_id, *owner_params(owner)))

    def _changed(self, sql: str, params: tuple[object, ...]) -> bool:
        with self.pool.connection() as conn:
            return conn.execute(sql, params).rowcount > 0

    def reopen(self, job_id: str) -> bool:
        """Queue a failed or cancelled job again (to resume it); returns whether it changed."""
        with self.pool.connection() as conn:
            cursor = conn.execute(
                "UPDATE jobs SET status = 'queued', error = NULL, finished_at = NULL"
                " WHERE id = %s AND status IN ('failed', 'cancelled')", (job_id,))
            return cursor.rowcount > 0

    def add_event(self, job_id: str, kind: str, node: str | None = None,
                  data: dict[str, Any] | None = None) -> JobEvent:
        at = time.time()
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT 1 FROM jobs WHERE id = %s FOR UPDATE", (job_id,))
            row = conn.execute("INSERT INTO job_events(job_id, seq, at, kind, node, data)"
                               " SELECT %s, COALESCE(MAX(seq), 0) + 1, %s, %s, %s, %s"
                               " FROM job_events WHERE job_id = %s RETURNING seq",
                               (job_id, at, kind, node, json.dumps(data or {}, default=str),
                                job_id)).fetchone()
        assert row is not None
        return JobEvent(job_id=job_id, seq=row["seq"], at=at, kind=kind, node=node,
                        data=data or {})

    def events(self, job_id: str, after: int = 0) -> list[JobEvent]:
        rows = self._rows("SELECT * FROM job_events WHERE job_id = %s AND seq > %s ORDER BY seq",
                          (job_id, after))
        return [JobEvent(job_id=r["job_id"], seq=r["seq"], at=r["at"], kind=r["kind"],
                         node=r["node"], data=json.loads(r["data"])) for r in rows]

    def attach_files(self, job_id: str, files: dict[str, bytes]) -> None:
        """Keep a finished job's report files here, for an API process on another machine."""
        with self.pool.connection() as conn, conn.transaction():
            for name, content in files.items():
                conn.execute("INSERT INTO job_files(job_id, name, content) VALUES (%s, %s, %s)"
                             " ON CONFLICT (job_id, name) DO UPDATE SET content = excluded.content",
                             (job_id, name, content))

    def file(self, job_id: str, name: str) -> bytes | None:
        rows = self._rows("SELECT content FROM job_files WHERE job_id = %s AND name = %s",
                          (job_id, name))
        return bytes(rows[0]["content"]) if rows else None
