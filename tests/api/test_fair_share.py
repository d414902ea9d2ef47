"""One client cannot freeze the server: slow uploads past a client's share are 429 with
Retry-After, and /health, the library list and the web page answer while they run."""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.api.fair_share import kind_of
from papermind.config import load_settings
from papermind.services.library import AddResult, LibraryService
from tests.api.server import serve

SLOW_S = 10.0


@pytest.fixture
def slow_adds(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Every upload takes SLOW_S in a worker thread (a CPU-heavy PDF's parse, played)."""
    release = threading.Event()

    def add_bytes(self: LibraryService, data: bytes, name: str, **_: Any) -> AddResult:
        release.wait(SLOW_S)
        return AddResult(path=name, status="failed", reason="played")
    monkeypatch.setattr(LibraryService, "add_bytes", add_bytes)
    return release


def test_41_slow_uploads_leave_health_answering(home: Path, slow_adds: threading.Event) -> None:
    with serve(create_app(load_settings(home))) as base, \
            httpx.Client(base_url=base, timeout=30) as http:
        def upload(n: int) -> httpx.Response:
            return httpx.post(f"{base}/api/papers", timeout=30,
                              files={"file": (f"p{n}.md", b"# Title\n\nText.\n")})
        with ThreadPoolExecutor(41) as pool:
            answers = [pool.submit(upload, n) for n in range(41)]
            time.sleep(0.5)
            latencies = []
            for path in ("/health", "/api/papers", "/", "/health", "/readyz"):
                started = time.monotonic()
                assert http.get(path).status_code == 200, path
                latencies.append(time.monotonic() - started)
            slow_adds.set()
            codes = [a.result().status_code for a in answers]
    assert max(latencies) < 5.0, latencies  # margin for a busy CI machine; 10 s without fair share
    refused = [c for c in codes if c == 429]
    assert len(refused) >= 41 - 4 and set(codes) <= {429, 422}


def test_a_429_says_when_to_retry(home: Path, slow_adds: threading.Event) -> None:
    with serve(create_app(load_settings(home))) as base, ThreadPoolExecutor(5) as pool:
        answers = [pool.submit(httpx.post, f"{base}/api/papers", timeout=30,
                               files={"file": ("p.md", b"# T\n\nx\n")}) for _ in range(5)]
        wait(answers, timeout=SLOW_S, return_when=FIRST_COMPLETED)  # the 429, at once
        slow_adds.set()
        replies = [a.result() for a in answers]
    [refused] = [r for r in replies if r.status_code == 429]
    assert refused.headers["retry-after"] == "5"
    assert "too many upload requests at once" in refused.json()["detail"]


@pytest.mark.parametrize(("method", "path", "query", "kind"), [
    ("POST", "/api/papers", b"", "upload"), ("POST", "/ui/upload", b"", "upload"),
    ("GET", "/api/papers", b"", None), ("GET", "/api/papers/abc/references", b"", "scholar"),
    ("GET", "/papers/abc/references", b"", "scholar"),
    ("GET", "/api/papers/abc/check", b"online=true", "scholar"),
    ("GET", "/api/papers/abc/check", b"venue=acl", None),
    ("POST", "/ui/add-by-id", b"", "scholar"), ("GET", "/health", b"", None)])
def test_kinds(method: str, path: str, query: bytes, kind: str | None) -> None:
    assert kind_of({"method": method, "path": path, "query_string": query}) == kind
