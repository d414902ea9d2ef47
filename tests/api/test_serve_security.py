"""`papermind serve` off loopback needs a token; errors never leak internals to clients."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.domain.job import Job
from papermind.services.container import Container
from tests.api.crash_harness import ServerProcess
from tests.api.server import serve, wait_for

SECRET = "/srv/secret/internal-path.sqlite3"


def _serve_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "papermind", "serve", *args]


def test_serve_off_loopback_without_token_refuses_to_start(home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAPERMIND_API__TOKEN"}
    done = subprocess.run(_serve_cmd("--host", "0.0.0.0", "--port", "1"), env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 4, (done.returncode, done.stderr)  # the ConfigError exit code
    assert "needs an API token" in done.stderr and "PAPERMIND_API__TOKEN" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture
def off_loopback(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real server listening on 0.0.0.0 with a token (reached here through 127.0.0.1)."""
    server = ServerProcess(tmp_path / "home", "http://127.0.0.1:9/v1", tmp_path / "server.log",
                           env={"PAPERMIND_API__HOST": "0.0.0.0", "PAPERMIND_API__TOKEN": "s3cret"})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_token_is_required_off_loopback(off_loopback: ServerProcess) -> None:
    with off_loopback.client() as client:
        for path in ("/api/papers", "/api/jobs", "/api/search?q=x", "/", "/papers/x"):
            denied = client.get(path)
            assert denied.status_code == 401, path
            assert denied.headers["content-type"].startswith("application/problem+json")
            assert denied.headers["www-authenticate"] == "Bearer"
            assert denied.json()["status"] == 401
        assert client.get("/health").status_code == 200
        assert client.get("/login").status_code == 200
        wrong = client.get("/api/papers", headers={"Authorization": "Bearer s3cre"})
        assert wrong.status_code == 401
        assert client.get("/api/papers", headers={"Authorization": "Bearer s3cret"}).json() == []
        cookie = {"Cookie": "papermind_token=s3cret"}
        assert client.get("/api/papers", headers=cookie).status_code == 200
    assert "0.0.0.0" in off_loopback.log.read_text()


class BrokenLibrary:
    """Every call fails the way a bug would, with internals in the message."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"cannot open {SECRET}")


async def crashing_runner(job: Job, progress: Any) -> Any:
    raise KeyError(SECRET)


def test_server_errors_are_problems_without_internals(home: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    settings = load_settings(home)
    container = Container(settings)
    container.__dict__["library"] = BrokenLibrary()
    app = create_app(settings, container=container, runners={"question": crashing_runner})
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
        responses = [client.get("/api/papers"), client.get("/api/papers/abc"),
                     client.get("/"), client.delete("/api/papers/abc")]
        job = client.post("/api/jobs", json={"kind": "question", "question": "why?"}).json()
        failed = wait_for(client, job["id"])
    for response in responses:
        assert response.status_code == 500
        assert response.headers["content-type"].startswith("application/problem+json")
        body = response.text
        assert response.json()["detail"] == "internal error; the server log has details"
        for leak in ("Traceback", SECRET, "RuntimeError", "File "):
            assert leak not in body
    assert failed["status"] == "failed" and SECRET not in str(failed)
    assert "see the server log" in str(failed["error"])
    assert SECRET in caplog.text, "the details go to the server log"
