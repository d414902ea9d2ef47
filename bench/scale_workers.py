"""Scale-out: 16 review jobs on N = 1, 2, 4 `papermind worker` processes over PostgreSQL.

The mock model server (0.3 s per call, this process) plays the review panel; the endpoint's
shared limit is ``--limit`` calls in flight across all workers. Each worker runs one job at
a time, so N workers give N-way parallelism. Reported per N:

- wall: first submit -> last job finished; bound = ceil(16 / N) x the critical path of one
  review (editor + slowest reviewer + devil + support judge + meta = 5 sequential calls,
  nominally 5 x latency); target for N = 4: wall <= 1.3 x bound;
- peak requests in flight at the mock against the shared limit (must never exceed it);
- then N = 4 with one worker SIGKILLed mid-run: all jobs still complete, and no model call
  is repeated except those in flight at the kill.

    .venv/bin/python bench/scale_workers.py [--latency 0.3] [--jobs 16] [--limit 8] [--workers 1 2 4]

Needs PostgreSQL (tests/support/postgres.py finds one: $PAPERMIND_TEST_PG_URL, a local server
with pgvector, or a private pgserver).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.support.postgres import create_database, drop_database, find_server  # noqa: E402
from tests.support.workers import Worker, settings_for, wait_until, worker_env  # noqa: E402
from tests.workflows.review.panel_mock import panel_responder  # noqa: E402
from tests.workflows.review.paper_text import write_paper  # noqa: E402

from papermind.domain.job import JobRequest  # noqa: E402
from papermind.llm.testing import MockOpenAIServer  # noqa: E402
from papermind.services.container import Container  # noqa: E402

CALLS_ON_CRITICAL_PATH = 5


def papers(folder: Path, count: int) -> list[Path]:
    """``count`` distinct copies of the review test paper (distinct requests, distinct jobs)."""
    base = write_paper(folder).read_text(encoding="utf-8")
    paths = []
    for n in range(count):
        path = folder / f"paper-{n:02d}.md"
        path.write_text(base.replace("Zebraformer", f"Zebraformer-{n}"), encoding="utf-8")
        paths.append(path)
    return paths


def fingerprint(request: dict[str, Any]) -> str:
    key = json.dumps([request.get("messages"), request.get("tools")], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()


def one_run(server_url: str, mock: MockOpenAIServer, work: Path, *, workers: int, jobs: int,
            limit: int, kill_after: int | None) -> dict[str, Any]:
    pg_url = create_database(server_url)
    try:
        env = worker_env(work / "home", pg_url, mock.base_url,
                         PAPERMIND_LLM__ENDPOINTS__DEFAULT__MAX_CONCURRENCY=str(limit),
                         PAPERMIND_LLM__CACHE="false")  # every call reaches the mock
        with Container(settings_for(env)) as box:
            ids = [box.library.add_file(p, embed=False).paper_id for p in papers(work, jobs)]
            service = box.job_service()  # creates the queue schema before workers start
            procs = [Worker(env, work / "workers.log").start() for _ in range(workers)]
            try:
                _wait_registered(pg_url, workers)
                mock.reset()
                started = time.time()
                job_ids = [service.submit(JobRequest(kind="review", paper_id=i))[0].id
                           for i in ids if i]
                if kill_after is not None:
                    wait_until(lambda: _done(box, job_ids) >= kill_after, "jobs before the kill")
                    procs[0].kill()
                wait_until(lambda: _done(box, job_ids) == len(job_ids), "all jobs", timeout=900,
                           every=0.1)
                finals = [box.job_store.get(j) for j in job_ids]
            finally:
                for proc in procs:
                    proc.stop()
            service.queue.close() if service.queue else None
    finally:
        drop_database(server_url, pg_url)
    wall = max(f.finished_at or 0 for f in finals) - started
    repeats = Counter(fingerprint(r) for r in mock.requests)
    return {"workers": workers, "killed": kill_after is not None, "wall": wall,
            "statuses": Counter(f.status for f in finals), "peak": mock.peak_in_flight,
            "calls": mock.request_count, "repeated": sum(c - 1 for c in repeats.values()),
            "attempts": sum(f.attempts for f in finals)}


def _done(box: Container, job_ids: list[str]) -> int:
    return sum(box.job_store.get(j).finished for j in job_ids)


def _wait_registered(pg_url: str, workers: int) -> None:
    import psycopg

    def registered() -> bool:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM procrastinate_workers").fetchone()
        return bool(row and row[0] >= workers)

    wait_until(registered, f"{workers} workers to register", timeout=300, every=0.5)


def main(latency: float, jobs: int, limit: int, counts: list[int]) -> list[str]:
    found = find_server()
    if isinstance(found, str):
        raise SystemExit(found)
    critical = CALLS_ON_CRITICAL_PATH * latency
    lines = [f"{jobs} review jobs (full panel, 7 calls each), mock latency {latency:.2f} s per "
             f"call, shared limit {limit} in flight; PostgreSQL: {found.origin}; critical path "
             f"of one review {critical:.2f} s ({CALLS_ON_CRITICAL_PATH} sequential calls)",
             f"load average before: {os.getloadavg()[0]:.1f}", "",
             "| workers | SIGKILL | wall s | bound s | wall / bound | completed | peak in flight"
             " / limit | calls | repeated calls | attempts |", "|---|---|---|---|---|---|---|---|---|---|"]
    plan = [(n, None) for n in counts] + [(max(counts), jobs // 3)]
    with MockOpenAIServer(responder=panel_responder, latency_s=latency) as mock:
        for workers, kill_after in plan:
            with tempfile.TemporaryDirectory(prefix="scale-") as folder:
                row = one_run(found.url, mock, Path(folder), workers=workers, jobs=jobs,
                              limit=limit, kill_after=kill_after)
            survivors = workers - (1 if row["killed"] else 0)
            bound = math.ceil(jobs / workers) * critical
            lines.append(
                f"| {workers} | {'after ' + str(kill_after) + ' done' if row['killed'] else '-'}"
                f" | {row['wall']:.2f} | {bound:.2f} | {row['wall'] / bound:.2f} |"
                f" {row['statuses'].get('completed', 0)}/{jobs} | {row['peak']} / {limit} |"
                f" {row['calls']} | {row['repeated']} | {row['attempts']} |")
            print(lines[-1], f"(survivors {survivors})", flush=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines += ["", f"load average after: {os.getloadavg()[0]:.1f}; CPU of all worker processes: "
              f"{usage.ru_utime:.1f} s user + {usage.ru_stime:.1f} s sys"]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--jobs", type=int, default=16)
    parser.add_argument("--limit", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    started = time.perf_counter()
    cpu = time.process_time()
    out = main(args.latency, args.jobs, args.limit, args.workers)
    out.append(f"this process: {time.perf_counter() - started:.0f} s wall, "
               f"{time.process_time() - cpu:.1f} s CPU")
    print("\n".join(out))
