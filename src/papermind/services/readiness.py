"""``GET /readyz``: is every dependency this server needs up, and which one is not.

Checks: the library database answers a query; the job store (the queue, on PostgreSQL) answers
one; each model endpoint configured in ``llm.endpoints`` answers ``GET /models`` with its
model (the bundled local model is not probed: it is a file, not a service). A check that
fails says why in one line, with any credentials of a URL taken out (``hosts.redact``:
user:password, api-key and token parameters); the server is ready only when all pass.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from papermind.config import Settings
from papermind.db import SqlDatabase
from papermind.hosts import redact
from papermind.llm.health import check_endpoint
from papermind.llm.providers import provider_kind

ENDPOINT_TIMEOUT_S = 3.0


@dataclass(frozen=True)
class Check:
    """One dependency's state."""

    name: str
    ok: bool
    detail: str


async def readiness(db: SqlDatabase, settings: Settings) -> list[Check]:
    """Every check, the slow ones (model endpoints) concurrently."""
    checks = [await asyncio.to_thread(_query_check, db, "database", "SELECT 1"),
              await asyncio.to_thread(_query_check, db, "jobs",
                                      "SELECT COUNT(*) FROM jobs WHERE status = 'queued'")]
    endpoints = [(name, e) for name, e in settings.llm.endpoints.items()
                 if not provider_kind(e.provider).free]
    statuses = await asyncio.gather(*[check_endpoint(name, e, ENDPOINT_TIMEOUT_S)
                                      for name, e in endpoints])
    checks += [Check(f"model:{s.endpoint}", s.ok, s.detail) for s in statuses]
    return [Check(c.name, c.ok, redact(c.detail)) for c in checks]


def _query_check(db: SqlDatabase, name: str, sql: str) -> Check:
    try:
        db.query(sql)
    except Exception as err:  # any failure means "down": say which, in one line
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return Check(name, False, f"{type(err).__name__}: {first}"[:300])
    return Check(name, True, "ok")
