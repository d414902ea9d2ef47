"""Kill `papermind serve` with SIGKILL in the middle of a review job, restart it, compare.

Shared by tests/api/test_crash_resume.py (one repetition) and bench/crash_resume.py (ten).
The model is a MockOpenAIServer in THIS process (its request log survives the kill) that
plays the review panel with ``panel_responder``; the server is a real subprocess with its
own PAPERMIND_HOME, pointed at the mock through PAPERMIND_LLM__ENDPOINTS__DEFAULT__*.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from papermind.llm.testing import MockOpenAIServer
from papermind.llm.testing.mock_server import requested_schema
from tests.api.server import free_port
from tests.workflows.review.paper_text import write_paper

SCHEMA_NODES = {"EditorDraft": "editor", "DevilDraft": "devil",
                "SupportJudgement": "support_judge", "MetaDraft": "meta"}
REVIEWER_NODES = {"contribution": "contribution_reviewer", "method": "methodology_reviewer",
                  "experiments": "experiment_reviewer", "whether": "reproducibility_reviewer"}
VOLATILE = {"usage"}
"""Report keys that legitimately differ after a resume: usage also counts the calls that
were in flight at the kill and were made again (or answered from the cache)."""
TIMES = {"started", "finished", "seconds"}
START_TIMEOUT_S = 90.0
JOB_TIMEOUT_S = 180.0


def node_of(request: dict[str, Any]) -> str:
    """The review node that sent a chat request (from its schema and system prompt)."""
    title = (requested_schema(request) or {}).get("title", "")
    if title in SCHEMA_NODES:
        return SCHEMA_NODES[title]
    system = " ".join(str(m.get("content") or "") for m in request.get("messages", [])
                      if m.get("role") == "system")
    match = re.search(r"You review the (\w+)", system)
    return REVIEWER_NODES.get(match.group(1), "?") if match else "?"


def fingerprint(request: dict[str, Any]) -> str:
    """Identity of a call: same messages, same schema, same temperature."""
    key = json.dumps([request.get("messages"), request.get("tools"),
                      request.get("temperature")], sort_keys=True, default=str)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


class ServerProcess:
    """`python -m papermind serve` on a free loopback port with its own home."""

    def __init__(self, home: Path, model_url: str, log: Path, port: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PAPERMIND_HOME": str(home),
                    "PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL": model_url,
                    "PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL": "mock-model",
                    "PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY": "k",
                    "PAPERMIND_LLM__ENDPOINTS__DEFAULT__TIMEOUT_S": "60",
                    "PAPERMIND_SEARCH__EMBEDDER": "hashing",
                    "PAPERMIND_BLOCK_REAL_LLM": "1"}
        self.env.pop("PAPERMIND_API__TOKEN", None)
        self.env.update(env or {})
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "papermind", "serve", "--port", str(self.port)],
                env=self.env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.log}")
            try:
                if httpx.get(f"{self.base}/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"server did not answer within {START_TIMEOUT_S} s")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no final writes."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=30)


@dataclass
class RunOutcome:
    """One review job's end state and what the model saw."""

    job: dict[str, Any]
    report: dict[str, Any]
    requests: list[dict[str, Any]]
    events: list[dict[str, Any]] = field(default_factory=list)
    completed_before_kill: list[str] = field(default_factory=list)
    killed: bool = False

    def calls_per_node(self) -> Counter[str]:
        return Counter(node_of(r) for r in self.requests)

    def repeated(self) -> Counter[str]:
        """Node -> calls that repeat an identical earlier call."""
        seen: set[str] = set()
        repeats: Counter[str] = Counter()
        for request in self.requests:
            key = fingerprint(request)
            if key in seen:
                repeats[node_of(request)] += 1
            seen.add(key)
        return repeats


def submit_review(client: httpx.Client, paper: Path) -> str:
    upload = client.post("/api/papers", files={"file": (paper.name, paper.read_bytes())})
    upload.raise_for_status()
    job = client.post("/api/jobs", json={"kind": "review", "paper_id": upload.json()["id"]})
    job.raise_for_status()
    return str(job.json()["id"])


def finished_nodes(events: list[dict[str, Any]]) -> list[str]:
    return [e["node"] for e in events if e["kind"] == "node" and e["node"]]


def wait_done(client: httpx.Client, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + JOB_TIMEOUT_S
    while True:
        job: dict[str, Any] = client.get(f"/api/jobs/{job_id}").json()
        if job["status"] in ("completed", "failed", "cancelled"):
            return job
        if time.monotonic() > deadline:
            raise AssertionError(f"job {job_id} still {job['status']} after {JOB_TIMEOUT_S} s")
        time.sleep(0.1)


def _finish(server: ServerProcess, job_id: str, mock: MockOpenAIServer) -> RunOutcome:
    with server.client() as client:
        job = wait_done(client, job_id)
        report = client.get(f"/api/jobs/{job_id}/result").json() if (
            job["status"] == "completed") else {}
        events = client.get(f"/api/jobs/{job_id}/events").json()
    return RunOutcome(job, report, list(mock.requests), events)


def uninterrupted_run(work: Path, mock: MockOpenAIServer) -> RunOutcome:
    """The reference: the same review in a fresh home, in this process, never killed."""
    from papermind.config import EndpointSettings, LLMSettings, SearchSettings, Settings
    from papermind.services.container import Container
    from papermind.services.review import review_paper

    mock.reset()
    folder = work / "reference"
    folder.mkdir(parents=True, exist_ok=True)
    endpoint = EndpointSettings(base_url=mock.base_url, model="mock-model", api_key="k",
                                timeout_s=60)
    settings = Settings(home=folder / "home", llm=LLMSettings(endpoints={"default": endpoint}),
                        search=SearchSettings(embedder="hashing"))
    with Container(settings) as container:
        run = asyncio.run(review_paper(container, write_paper(folder), job_id="reference",
                                       out_dir=folder / "out", signoff=False))
    report = json.loads((folder / "out" / "report.json").read_text(encoding="utf-8"))
    return RunOutcome({"status": run.status}, report, list(mock.requests))


def crash_run(work: Path, mock: MockOpenAIServer, *, after_nodes: int,
              delay_s: float, env: dict[str, str] | None = None) -> RunOutcome:
    """Kill the server ``delay_s`` after ``after_nodes`` nodes finished, restart, finish."""
    mock.reset()
    work.mkdir(parents=True, exist_ok=True)
    log = work / "server.log"
    first = ServerProcess(work / "home", mock.base_url, log, env=env).start()
    try:
        with first.client() as client:
            job_id = submit_review(client, write_paper(work))
            deadline = time.monotonic() + JOB_TIMEOUT_S
            while len(finished_nodes(client.get(f"/api/jobs/{job_id}/events").json())) < after_nodes:
                if time.monotonic() > deadline:
                    raise AssertionError(f"no {after_nodes} finished nodes; see {log}")
                time.sleep(0.02)
            time.sleep(delay_s)
    finally:
        first.kill()
    second = ServerProcess(work / "home", mock.base_url, log, port=first.port, env=env).start()
    try:
        outcome = _finish(second, job_id, mock)
    finally:
        second.stop()
    outcome.killed = True
    outcome.completed_before_kill = _before_resume(outcome.events)
    return outcome


def _before_resume(events: list[dict[str, Any]]) -> list[str]:
    """Nodes finished before the job's second 'running' event (the resume)."""
    runs = 0
    nodes: list[str] = []
    for event in events:
        if event["kind"] == "status" and event["data"].get("status") == "running":
            runs += 1
        elif runs == 1 and event["kind"] == "node" and event["node"]:
            nodes.append(event["node"])
    return nodes


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """The report without usage and without the wall-clock times in its history."""
    kept = {k: v for k, v in report.items() if k not in VOLATILE}
    kept["history"] = [{k: v for k, v in step.items() if k not in TIMES}
                       for step in report.get("history", [])]
    return kept


def check(reference: RunOutcome, crashed: RunOutcome) -> list[str]:
    """Problems with a crashed run (empty list = it passed)."""
    problems = []
    if crashed.job["status"] != "completed":
        problems.append(f"job ended {crashed.job['status']}: {crashed.job.get('error')}")
    if crashed.job.get("attempts") != 2:
        problems.append(f"attempts {crashed.job.get('attempts')} (expected 2: killed mid-job)")
    if not crashed.completed_before_kill:
        problems.append("no node had finished before the kill")
    if comparable(crashed.report) != comparable(reference.report):
        problems.append("the report differs from the uninterrupted run's")
    counts = crashed.calls_per_node()
    llm_nodes = set(SCHEMA_NODES.values()) | set(REVIEWER_NODES.values())
    for node in sorted(set(crashed.completed_before_kill) & llm_nodes):
        if counts[node] != 1:
            problems.append(f"{node} finished before the kill but was called {counts[node]}x")
    unexpected = {n: c for n, c in crashed.repeated().items()
                  if n in crashed.completed_before_kill}
    if unexpected:
        problems.append(f"repeated calls for completed nodes: {unexpected}")
    extra = len(crashed.requests) - len(reference.requests)
    if extra < 0 or extra > 4:
        problems.append(f"{len(crashed.requests)} model calls vs {len(reference.requests)} "
                        "uninterrupted (at most the calls in flight at the kill may repeat)")
    return problems
