"""Job rows tell identical requests apart: creation time, models called, the owner."""

from __future__ import annotations

from papermind.db import Database
from papermind.domain.job import Job, JobOwner, JobRequest
from papermind.llm.usage import CallRecord
from papermind.llm.usage_store import CallStore
from papermind.services.job_listing import job_details


def test_each_job_names_its_models_in_first_use_order_and_its_owner() -> None:
    db = Database(":memory:")
    store = CallStore(db)
    for job_id, model in (("a", "gpt-x"), ("a", "local"), ("a", "gpt-x"), ("b", "claude-y")):
        store.add(CallRecord("reader", "explain", job_id, "https://x", model, 10, 2, 0.0,
                             False, 1, 0.1, True))
    request = JobRequest(kind="reading", paper_id="p1")
    jobs = [Job(id="a", request=request, created_at=0.0,
                owner=JobOwner(host="box", pid=42, started_at=0.0)),
            Job(id="b", request=request, created_at=0.0), Job(id="c", request=request,
                                                              created_at=0.0)]
    details = job_details(db, jobs)
    assert details["a"].models == "gpt-x, local" and details["a"].origin == "box pid 42"
    assert details["b"].models == "claude-y" and details["b"].origin == ""
    assert details["c"].models == "" and details["c"].created.count(":") == 1
