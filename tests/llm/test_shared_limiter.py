"""The shared LLM limiter: limits hold across processes (the mock server counts in flight)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from papermind.llm.shared_limiter import SharedLimiter, lock_key
from papermind.llm.testing import MockOpenAIServer

ROOT = Path(__file__).resolve().parents[2]


def run_clients(pg_url: str, mock: MockOpenAIServer, *, processes: int, calls: int, limit: int,
                rpm: int | None = None, mode: str = "shared") -> None:
    """Start ``processes`` clients, wait until each is warm, release them together."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    args = [pg_url, mock.base_url, str(calls), str(limit), str(rpm or "-"), mode]
    procs = [subprocess.Popen([sys.executable, "-m", "tests.support.limiter_client", *args],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
             for _ in range(processes)]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        mock.reset()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in procs:
            assert proc.wait(timeout=120) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()


@pytest.fixture
def mock() -> Any:
    with MockOpenAIServer(latency_s=0.15) as server:
        yield server


def test_concurrency_limit_holds_across_three_processes(pg_url: str,
                                                        mock: MockOpenAIServer) -> None:
    run_clients(pg_url, mock, processes=3, calls=6, limit=2)
    assert mock.request_count == 18
    assert mock.peak_in_flight == 2


def test_without_the_shared_limiter_processes_exceed_the_limit_together(
        pg_url: str, mock: MockOpenAIServer) -> None:
    """The control: each process keeps its own limit, so together they pass it."""
    run_clients(pg_url, mock, processes=2, calls=6, limit=2, mode="local")
    assert mock.peak_in_flight > 2


def test_requests_per_minute_hold_across_processes(pg_url: str) -> None:
    arrivals: list[float] = []
    lock = threading.Lock()

    def responder(request: dict[str, Any]) -> str:
        with lock:
            arrivals.append(time.monotonic())
        return "ok"

    with MockOpenAIServer(responder=responder) as server:
        run_clients(pg_url, server, processes=2, calls=4, limit=8, rpm=300)  # one per 0.2 s
        times = sorted(arrivals[-8:])
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(times) == 8
    # starts are 0.2 s apart on the database clock; HTTP adds jitter on a loaded machine
    # (unpaced, the 8 calls would arrive within a few milliseconds of each other)
    assert min(gaps) >= 0.05, gaps
    assert times[-1] - times[0] >= 7 * 0.2 - 0.05, gaps


async def test_a_slot_is_released_when_its_call_fails(pg_url: str) -> None:
    limiter = SharedLimiter(pg_url, "ep", max_concurrency=1)

    async def boom() -> None:
        raise RuntimeError("provider fell over")

    async def fine() -> str:
        return "ok"

    with pytest.raises(RuntimeError):
        await limiter.run(boom, timeout_s=5)
    assert await limiter.run(fine, timeout_s=5) == "ok"
    await limiter.aclose()


def test_a_dead_process_releases_its_slots(pg_url: str) -> None:
    import psycopg

    holder = subprocess.Popen([sys.executable, "-c", (
        "import psycopg, sys, time\n"
        f"c = psycopg.connect({pg_url!r}, autocommit=True)\n"
        f"c.execute('SELECT pg_advisory_lock(%s, 0)', ({lock_key('ep')},))\n"
        "print('held', flush=True); time.sleep(60)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with psycopg.connect(pg_url, autocommit=True) as conn:
            probe = "SELECT pg_try_advisory_lock(%s, 0)"
            row = conn.execute(probe, (lock_key("ep"),)).fetchone()
            assert row is not None and row[0] is False
            holder.kill()
            holder.wait()
            deadline = time.monotonic() + 5
            while not conn.execute(probe, (lock_key("ep"),)).fetchone()[0]:  # type: ignore[index]
                assert time.monotonic() < deadline, "the killed process's slot stayed taken"
                time.sleep(0.05)
    finally:
        holder.kill()


def test_the_loop_ends_when_a_cancelled_call_left_its_pool_reconnecting(pg_url: str) -> None:
    """psycopg_pool's worker swallows a cancellation that lands while it reconnects, so an
    open pool kept ``asyncio.run`` from returning (a stopping worker hung for good);
    ``run_loop`` closes the shared limiters' pools first and the loop ends."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    done = subprocess.run([sys.executable, "-m", "tests.support.limiter_cancel", pg_url],
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stdout.strip() == "exited", done.stderr[-2000:]
