"""Schema fuzz of the OpenAPI description against the real HTTP server: no 5xx, ever.

schemathesis generates valid (positive) and invalid (negative) requests for every operation;
a third stream aims the same generators at a paper and a job that exist, so the deeper code
paths (page rendering, results, events, cancel) are reached too. Deterministic (derandomize)
and bounded (MAX_EXAMPLES per operation and stream).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from papermind.domain.job import Job
from papermind.services.jobs import JobOutcome
from tests.api.server import serve
from tests.cli.pdf_factory import paper_pdf

schemathesis = pytest.importorskip("schemathesis")
hypothesis = pytest.importorskip("hypothesis")

MAX_EXAMPLES = 12
KEEP_PAPER = {"DELETE"}
"""Methods never aimed at the seeded paper (it must stay for the other operations)."""


async def instant(job: Job, progress: Any) -> JobOutcome:
    """A runner that finishes at once: this test is about the HTTP layer, not workflows."""
    progress("noop", {"event": "finished"})
    return JobOutcome(usage={"tokens_in": 0})


def _seed(client: httpx.Client, tmp_path: Path) -> dict[str, str]:
    pdf = paper_pdf(tmp_path / "seed.pdf", "Seed Paper for Fuzzing")
    paper = client.post("/api/papers", files={"file": ("seed.pdf", Path(pdf).read_bytes())})
    assert paper.status_code == 201, paper.text
    job = client.post("/api/jobs", json={"kind": "question", "question": "What is stored?"})
    assert job.status_code == 202, job.text
    return {"paper_id": paper.json()["id"], "job_id": job.json()["id"]}


def _strategies(operation: Any, known: dict[str, str]) -> Any:
    from hypothesis import strategies as st
    from schemathesis import GenerationMode

    names = {p.name for p in operation.path_parameters}
    aimed = {k: v for k, v in known.items() if k in names}
    if operation.method.upper() in KEEP_PAPER:
        aimed.pop("paper_id", None)
    options = [operation.as_strategy(GenerationMode.POSITIVE),
               operation.as_strategy(GenerationMode.NEGATIVE)]
    if aimed:
        options.append(operation.as_strategy(GenerationMode.POSITIVE, path_parameters=aimed))
    return st.one_of(options)


class Tally:
    """Statuses per response, requests per operation, and every failure seen."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.per_operation: Counter[str] = Counter()
        self.failures: list[str] = []

    def record(self, label: str, case: Any, response: Any) -> None:
        self.statuses[response.status_code] += 1
        self.per_operation[label] += 1
        if response.status_code >= 500 or "Traceback" in response.text:
            self.failures.append(f"{label}: {response.status_code} {response.text[:200]} <- "
                                 f"{case.path_parameters} {case.query} {case.body!r:.200}")


def _fuzz(operation: Any, strategy: Any, base: str, tally: Tally) -> None:
    """Run MAX_EXAMPLES generated requests (no shrinking: failures are collected)."""
    from hypothesis import HealthCheck, Phase, given, settings

    @settings(max_examples=MAX_EXAMPLES, derandomize=True, deadline=None, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def exercise(case: Any) -> None:
        tally.record(operation.label, case, case.call(base_url=base, timeout=30))

    exercise()


def test_fuzz_every_operation_without_server_errors(home: Path, tmp_path: Path) -> None:
    settings = load_settings(home)
    settings = settings.model_copy(update={"search": SearchSettings(embedder="hashing")})
    app = create_app(settings, runners={"reading": instant, "review": instant,
                                        "question": instant})
    tally = Tally()
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
        known = _seed(client, tmp_path)
        schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
        for result in schema.get_all_operations():
            operation = result.ok()
            _fuzz(operation, _strategies(operation, known), base, tally)
        assert client.get("/health").status_code == 200, "the server survived the fuzz"
    print(f"fuzz: {sum(tally.statuses.values())} requests over {len(tally.per_operation)} "
          f"operations; statuses {dict(sorted(tally.statuses.items()))}")
    assert tally.failures == [], "\n".join(tally.failures[:20])
    assert len(tally.per_operation) >= 10, tally.per_operation
    assert sum(tally.statuses.values()) >= 10 * MAX_EXAMPLES
