"""Every call of a job, stored in the library database as it happens.

A job that is killed and resumed runs in a new process with a new in-memory ledger; the
calls of its earlier attempts live here, so its token budget and its reported usage add up
over every attempt.
"""

from __future__ import annotations

import time

from papermind.db import SqlDatabase
from papermind.llm.usage import CallRecord

COMPONENT = "llm_calls"


class CallStore:
    """Durable call records of jobs (calls outside a job are not stored)."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT)

    def add(self, record: CallRecord) -> None:
        if record.job_id is None:
            return
        self.db.execute(
            "INSERT INTO llm_calls(job_id, at, role, node, endpoint, model, tokens_in,"
            " tokens_out, cost_usd, cached, attempts, latency_s, ok)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.job_id, time.time(), record.role, record.node, record.endpoint,
             record.model, record.tokens_in, record.tokens_out, record.cost_usd,
             int(record.cached), record.attempts, record.latency_s, int(record.ok)))

    def models(self, job_ids: list[str]) -> dict[str, list[str]]:
        """job id -> the models its calls went to, in the order first used."""
        out: dict[str, list[str]] = {}
        for start in range(0, len(job_ids), 500):
            chunk = job_ids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = self.db.query(f"SELECT job_id, model, MIN(id) AS first FROM llm_calls WHERE "
                                 f"job_id IN ({marks}) GROUP BY job_id, model ORDER BY first",
                                 tuple(chunk))
            for row in rows:
                out.setdefault(row["job_id"], []).append(row["model"])
        return out

    def records(self, job_id: str) -> list[CallRecord]:
        rows = self.db.query("SELECT * FROM llm_calls WHERE job_id = ? ORDER BY id", (job_id,))
        return [CallRecord(r["role"], r["node"], r["job_id"], r["endpoint"], r["model"],
                           r["tokens_in"], r["tokens_out"], r["cost_usd"], bool(r["cached"]),
                           r["attempts"], r["latency_s"], bool(r["ok"])) for r in rows]
