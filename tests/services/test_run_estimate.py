"""The time estimate before a long local run: measured tokens/s here and the tokens earlier
runs of the kind used; nothing measured, nothing said."""

from __future__ import annotations

from pathlib import Path

from papermind.db import Database
from papermind.domain.job import JobRequest
from papermind.llm.usage import CallRecord
from papermind.llm.usage_store import CallStore
from papermind.services.job_store import JobStore
from papermind.services.run_estimate import estimate

REVIEW = JobRequest(kind="review", paper_id="p" * 64)


def _call(job: str, model: str, tokens: int, seconds: float, cached: bool = False) -> CallRecord:
    return CallRecord("commenter", "finding_comments", job, "local", model, tokens - 20, 20,
                      0.0, cached, 1, seconds)


def test_minutes_come_from_measured_tokens_per_second(tmp_path: Path) -> None:
    db = Database(tmp_path / "library.sqlite3")
    jobs, calls = JobStore(db), CallStore(db)
    assert estimate(db, "review", "small.gguf") is None, "nothing measured yet"
    for job_id, tokens in (("a", 3000), ("b", 6000), ("c", 9000)):
        jobs.create_or_get_active(job_id, REVIEW.model_copy(update={"paper_id": job_id * 64}))
        for _ in range(3):  # 3 calls of tokens/3 each, at 10 tokens/s
            calls.add(_call(job_id, "small.gguf", tokens // 3, tokens / 30))
        calls.add(_call(job_id, "small.gguf", 5000, 0.001, cached=True))  # cache: not counted
        jobs.finish(job_id, "completed")
    jobs.create_or_get_active("failed", REVIEW.model_copy(update={"paper_id": "f" * 64}))
    calls.add(_call("failed", "small.gguf", 90000, 9000.0))
    jobs.finish("failed", "failed")
    found = estimate(db, "review", "small.gguf")
    assert found is not None and found.jobs == 3 and found.calls == 10
    assert abs(found.tokens_per_s - 10.0) < 0.01
    assert abs(found.seconds - 600.0) < 1, "the median job (6,000 tokens) at 10 tokens/s"
    assert found.line().startswith("about 10 minutes on this machine (the local model ran "
                                   "10 tokens/s over its last 10 calls here")
    assert estimate(db, "review", "other.gguf") is None, "another model: not measured"
    assert estimate(db, "reading", "small.gguf") is None, "no reading run yet"
    db.close()
