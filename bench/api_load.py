"""Load on the REST API: 50 concurrent clients listing, searching and polling jobs for 60 s.

A real `papermind serve` subprocess (fresh PAPERMIND_HOME, default embedder unless told) gets
a few papers and a few review jobs against a mock model server (so some jobs run during the
load); then N async clients loop over a weighted mix of requests, one at a time each. Every
non-2xx response or transport failure counts as an error.

    .venv/bin/python bench/api_load.py [--clients 50] [--seconds 60] [--embedder e5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.api.crash_harness import ServerProcess, wait_done  # noqa: E402
from tests.workflows.review.panel_mock import panel_responder  # noqa: E402
from tests.workflows.review.paper_text import write_paper  # noqa: E402

from papermind.llm.testing import MockOpenAIServer  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "pdfs" / "science_parse"
QUERIES = ["sparse attention routing", "legal documents", "macro-F1 over Longformer",
           "translation model", "experiments and baselines", "parsing accuracy",
           "we propose a method", "related work", "annealed temperature", "results table"]
MIX = [("list papers", 3), ("search", 2), ("job status", 4), ("job events", 1)]


def papers(folder: Path) -> list[Path]:
    found = [ROOT / "examples" / "example_paper.pdf", write_paper(folder)]
    found += sorted(SHARED.glob("*.pdf"))[:2] if SHARED.is_dir() else []
    return [p for p in found if p.is_file()]


def seed(client: httpx.Client, folder: Path) -> tuple[list[str], list[str]]:
    """Upload the papers; start a review of each (they run during the load)."""
    paper_ids, job_ids = [], []
    for path in papers(folder):
        response = client.post("/api/papers", files={"file": (path.name, path.read_bytes())},
                               timeout=600)
        response.raise_for_status()
        paper_ids.append(response.json()["id"])
    for paper_id in paper_ids:
        job = client.post("/api/jobs", json={"kind": "review", "paper_id": paper_id,
                                             "reviewers": "minimal"})
        job.raise_for_status()
        job_ids.append(job.json()["id"])
    return paper_ids, job_ids


def request_for(kind: str, rng: random.Random, job_ids: list[str]) -> tuple[str, dict[str, str]]:
    if kind == "list papers":
        return "/api/papers", {}
    if kind == "search":
        return "/api/search", {"q": rng.choice(QUERIES), "k": "10"}
    job = rng.choice(job_ids)
    return (f"/api/jobs/{job}", {}) if kind == "job status" else (f"/api/jobs/{job}/events", {})


async def one_client(n: int, base: str, job_ids: list[str], until: float,
                     latencies: dict[str, list[float]], errors: dict[str, list[str]]) -> None:
    rng = random.Random(n)
    kinds = [k for k, weight in MIX for _ in range(weight)]
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        while time.monotonic() < until:
            kind = rng.choice(kinds)
            path, params = request_for(kind, rng, job_ids)
            started = time.perf_counter()
            try:
                response = await client.get(path, params=params)
                if response.status_code >= 300:
                    errors[kind].append(f"{response.status_code} {response.text[:100]}")
            except httpx.HTTPError as err:
                errors[kind].append(f"{type(err).__name__}: {err}")
            latencies[kind].append(time.perf_counter() - started)


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 \
        else (values[0] if values else 0.0)


async def load(base: str, job_ids: list[str], clients: int, seconds: float
               ) -> tuple[dict[str, list[float]], dict[str, list[str]], float]:
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, list[str]] = defaultdict(list)
    started = time.monotonic()
    await asyncio.gather(*(one_client(n, base, job_ids, started + seconds, latencies, errors)
                           for n in range(clients)))
    return latencies, errors, time.monotonic() - started


def table(latencies: dict[str, list[float]], errors: dict[str, list[str]],
          wall: float) -> list[str]:
    rows = ["| endpoint | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms |",
            "|---|---|---|---|---|---|---|---|"]
    everything = [v for values in latencies.values() for v in values]
    for kind, _ in [*MIX, ("all", 0)]:
        values = everything if kind == "all" else latencies[kind]
        failed = sum(len(e) for e in errors.values()) if kind == "all" else len(errors[kind])
        rows.append(f"| {kind} | {len(values)} | {failed} | {len(values) / wall:.1f} | "
                    f"{pct(values, 50) * 1000:.0f} | {pct(values, 95) * 1000:.0f} | "
                    f"{pct(values, 99) * 1000:.0f} | {max(values, default=0) * 1000:.0f} |")
    return rows


def main(clients: int, seconds: float, embedder: str) -> list[str]:
    with MockOpenAIServer(responder=panel_responder, latency_s=2.0) as mock, \
            tempfile.TemporaryDirectory(prefix="api-load-") as tmp:
        folder = Path(tmp)
        server = ServerProcess(folder / "home", mock.base_url, folder / "server.log",
                               env={"PAPERMIND_SEARCH__EMBEDDER": embedder}).start()
        try:
            with server.client() as client:
                paper_ids, job_ids = seed(client, folder)
            load_before = os.getloadavg()[0]
            latencies, errors, wall = asyncio.run(load(server.base, job_ids, clients, seconds))
            with server.client() as client:
                jobs = [wait_done(client, job)["status"] for job in job_ids]
        finally:
            server.stop()
    total = sum(len(v) for v in latencies.values())
    failed = sum(len(v) for v in errors.values())
    samples = [f"{kind}: {msgs[0]}" for kind, msgs in errors.items() if msgs]
    return [f"{clients} clients for {wall:.1f} s against one `papermind serve` process "
            f"(embedder {embedder}); {len(paper_ids)} papers; {len(job_ids)} minimal review "
            f"jobs running during the load (mock model, 2 s per call), which ended {jobs}.",
            f"Machine: {os.cpu_count()} cores, load average {load_before:.1f} before the run "
            "(shared with other work); the clients run in the same machine.", "",
            f"**{total} requests, {failed} errors, {total / wall:.1f} requests/s**", "",
            *table(latencies, errors, wall), "", *(["Errors: " + "; ".join(samples)]
                                                   if samples else [])]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--embedder", default="e5", help="search.embedder of the server")
    args = parser.parse_args()
    lines = main(args.clients, args.seconds, args.embedder)
    command = " ".join(["python", "bench/api_load.py", *sys.argv[1:]])
    text = "\n".join(["# REST API under load", "", f"Command: `.venv/bin/{command}`", "",
                      *lines, ""])
    print(text)
    (ROOT / "bench" / "results" / "api_load.md").write_text(text, encoding="utf-8")
