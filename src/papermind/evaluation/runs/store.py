"""Evaluation runs as data: each run's settings and summary, and its per-item results.

A run (``review``, ``qa``, ``reading``) stores what it ran against (endpoint, model per role,
prompt hashes, code version, options) when it starts; every finished item is written at
once with its result and usage, so a killed run resumes at the first item not stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from papermind.db import SqlDatabase
from papermind.errors import NotFoundError

COMPONENT = "eval_runs"


@dataclass(frozen=True)
class EvalRun:
    id: str
    kind: str
    created_at: str
    status: str
    settings: dict[str, Any]
    summary: dict[str, Any]


@dataclass(frozen=True)
class EvalItem:
    item_id: str
    result: dict[str, Any]
    tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0


class EvalRunStore:
    """CRUD for evaluation runs and their items."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT)

    def create(self, run_id: str, kind: str, settings: dict[str, Any]) -> EvalRun:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.db.transaction() as conn:
            conn.execute("INSERT INTO eval_runs(id, kind, created_at, status, settings)"
                         " VALUES (?,?,?,?,?)", (run_id, kind, now, "running",
                                                 json.dumps(settings, sort_keys=True)))
        return self.get(run_id)

    def get(self, run_id: str) -> EvalRun:
        rows = self.db.query("SELECT * FROM eval_runs WHERE id = ?", (run_id,))
        if not rows:
            rows = self.db.query("SELECT * FROM eval_runs WHERE id LIKE ? ORDER BY created_at",
                                 (f"{run_id}%",))
            if len(rows) != 1:
                raise NotFoundError(f"no evaluation run {run_id!r}"
                                    + (f" ({len(rows)} match)" if rows else ""))
        row = rows[0]
        return EvalRun(row["id"], row["kind"], row["created_at"], row["status"],
                       json.loads(row["settings"]), json.loads(row["summary"]))

    def runs(self, kind: str | None = None) -> list[EvalRun]:
        rows = self.db.query("SELECT id FROM eval_runs" + (" WHERE kind = ?" if kind else "")
                             + " ORDER BY created_at, rowid", (kind,) if kind else ())
        return [self.get(r["id"]) for r in rows]

    def latest(self, kind: str, *, before: str | None = None, finished: bool = True,
               same: dict[str, Any] | None = None) -> EvalRun | None:
        """The newest run of ``kind`` (finished, other than ``before``, matching ``same``)."""
        runs = [r for r in self.runs(kind) if r.id != before
                and (not finished or r.status == "finished")
                and all(r.settings.get(k) == v for k, v in (same or {}).items())]
        return runs[-1] if runs else None

    def add_item(self, run_id: str, item: EvalItem) -> None:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.db.transaction() as conn:
            seq = conn.execute("SELECT COUNT(*) FROM eval_items WHERE run_id = ?",
                               (run_id,)).fetchone()[0]
            conn.execute(
                "INSERT INTO eval_items(run_id, item_id, seq, result, tokens, cost_usd, seconds,"
                " done_at) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(run_id, item_id) DO NOTHING",
                (run_id, item.item_id, seq, json.dumps(item.result, default=str), item.tokens,
                 item.cost_usd, item.seconds, now))

    def items(self, run_id: str) -> list[EvalItem]:
        rows = self.db.query("SELECT * FROM eval_items WHERE run_id = ? ORDER BY seq", (run_id,))
        return [EvalItem(r["item_id"], json.loads(r["result"]), r["tokens"], r["cost_usd"],
                         r["seconds"]) for r in rows]

    def finish(self, run_id: str, summary: dict[str, Any], status: str = "finished") -> None:
        with self.db.transaction() as conn:
            conn.execute("UPDATE eval_runs SET status = ?, summary = ? WHERE id = ?",
                         (status, json.dumps(summary, default=str), run_id))
