"""`papermind worker` subprocesses over one PostgreSQL, and a review submitted to them.

Shared by tests/services/test_worker.py (SIGKILL one worker mid-review) and
bench/scale_workers.py (N workers, 16 reviews). The model is a MockOpenAIServer in the
caller's process (its request log survives a kill); each worker is a real process with the
same PAPERMIND_HOME and storage.url, pointed at the mock through the environment.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from papermind.config import Settings, load_settings
from papermind.services.worker import JOB_LOCK

ROOT = Path(__file__).resolve().parents[2]
JOB_TIMEOUT_S = 240.0


def worker_env(home: Path, pg_url: str, model_url: str, **extra: str) -> dict[str, str]:
    """The environment of a worker (and of the settings the test itself uses)."""
    env = {"PAPERMIND_HOME": str(home), "PAPERMIND_STORAGE__URL": pg_url,
           "PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL": model_url,
           "PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL": "mock-model",
           "PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY": "k",
           "PAPERMIND_LLM__ENDPOINTS__DEFAULT__TIMEOUT_S": "60",
           "PAPERMIND_SEARCH__EMBEDDER": "hashing", "PAPERMIND_BLOCK_REAL_LLM": "1",
           "PAPERMIND_JOBS__HEARTBEAT_S": "0.5", "PAPERMIND_JOBS__STALLED_AFTER_S": "3"}
    env.update(extra)
    return env


def settings_for(env: dict[str, str]) -> Settings:
    """Settings as a worker with ``env`` sees them."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return load_settings()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class Worker:
    """One `python -m papermind worker` process."""

    def __init__(self, env: dict[str, str], log: Path, concurrency: int = 1) -> None:
        self.env = {**os.environ, **env,
                    "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
        self.env.pop("PAPERMIND_API__TOKEN", None)
        self.log, self.concurrency = log, concurrency
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "papermind", "worker", "--concurrency",
                 str(self.concurrency)], env=self.env, stdout=out, stderr=subprocess.STDOUT)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def wait_or_dump(self, timeout: float) -> int:
        """The exit code within ``timeout`` s; else the stacks of every thread and asyncio
        task go to the log (SIGUSR1, SIGUSR2) and the wait fails with the log's tail."""
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGUSR1)
            time.sleep(1)
            self.proc.send_signal(signal.SIGUSR2)
            time.sleep(2)
            tail = self.log.read_text(errors="replace")[-12000:]
            raise AssertionError(f"worker {self.pid} still running after {timeout} s:\n{tail}") \
                from None

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no final writes, no unregistering."""
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


def wait_until(check: Any, what: str, timeout: float = JOB_TIMEOUT_S, every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


def running_worker_pid(pg_url: str, job_id: str) -> int | None:
    """The pid of the worker process running ``job_id`` (from who holds its lock)."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s::oid"
            " AND l.objid = hashtext(%s)::oid AND l.objsubid = 2", (JOB_LOCK, job_id)).fetchone()
    return None if row is None else int(str(row[0]).rsplit("-", 1)[1])
