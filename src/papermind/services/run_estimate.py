"""How long a local run will take on this machine, from what earlier runs measured.

Model-agnostic: every call a job makes is recorded with its tokens and latency
(``llm.usage_store``). The estimate is the tokens a run of this kind used (the median of
the last few completed jobs of the kind) over the tokens per second the model reached in its
latest calls here. No history, no estimate: nothing is guessed.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from papermind.db import SqlDatabase
from papermind.llm import Gateway

MAIN_ROLE = {"reading": "explainer", "review": "commenter"}
"""The role whose model does a local run's work, per job kind (offline reading, review)."""
RECENT_CALLS = 200
RECENT_JOBS = 5
SHOW_FROM_S = 60.0
"""Runs estimated shorter than this are not announced."""


@dataclass(frozen=True)
class RunEstimate:
    """Expected seconds of model time, and what they were measured from."""

    seconds: float
    tokens_per_s: float
    calls: int
    jobs: int

    def line(self) -> str:
        minutes = max(1, round(self.seconds / 60))
        return (f"about {minutes} minute{'s' if minutes != 1 else ''} on this machine "
                f"(the local model ran {self.tokens_per_s:.0f} tokens/s over its last "
                f"{self.calls} calls here; {self.jobs} earlier run(s) of this kind)")


def local_estimate(db: SqlDatabase, gateway: Gateway, kind: str) -> RunEstimate | None:
    """The estimate for a ``kind`` job whose main role runs on a local model; None when the
    model is not local or nothing has been measured yet."""
    role = MAIN_ROLE.get(kind)
    if role is None or not gateway.resolve(role).kind.bundled:
        return None
    return estimate(db, kind, gateway.model_for(role))


def estimate(db: SqlDatabase, kind: str, model: str) -> RunEstimate | None:
    """Median tokens of recent ``kind`` jobs with ``model`` / its recent tokens per second."""
    if not db.has_tables(["llm_calls", "jobs"]):
        return None
    rate = db.query(
        "SELECT COUNT(*) AS n, SUM(tokens_in + tokens_out) AS tokens, SUM(latency_s) AS s"
        " FROM (SELECT tokens_in, tokens_out, latency_s FROM llm_calls WHERE model = ?"
        " AND ok = 1 AND cached = 0 AND latency_s > 0 ORDER BY id DESC LIMIT ?) AS recent",
        (model, RECENT_CALLS))[0]
    if not rate["n"] or not rate["s"]:
        return None
    per_job = [row["tokens"] for row in db.query(
        "SELECT c.job_id, SUM(c.tokens_in + c.tokens_out) AS tokens, MAX(j.created_at) AS at"
        " FROM llm_calls c JOIN jobs j ON j.id = c.job_id WHERE j.kind = ?"
        " AND j.status = 'completed' AND c.model = ? AND c.cached = 0 GROUP BY c.job_id"
        " ORDER BY at DESC LIMIT ?", (kind, model, RECENT_JOBS))]
    if not per_job:
        return None
    tokens_per_s = float(rate["tokens"]) / float(rate["s"])
    seconds = float(statistics.median(per_job)) / tokens_per_s
    return RunEstimate(seconds=seconds, tokens_per_s=tokens_per_s, calls=int(rate["n"]),
                       jobs=len(per_job))


def announce(db: SqlDatabase, gateway: Gateway, kind: str) -> str | None:
    """The line to print before a long local run ("about N minutes on this machine")."""
    found = local_estimate(db, gateway, kind)
    return found.line() if found is not None and found.seconds >= SHOW_FROM_S else None
