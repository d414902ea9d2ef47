"""Bursts of parallel page-image requests against a real `papermind serve` subprocess.

Shared by tests/api/test_page_images.py (two short rounds) and bench/page_image_burst.py
(five rounds of 40). Each round asks for every page at a scale no earlier round used (so
nothing comes from the disk cache) while an upload parses another PDF at the same time.
"""

from __future__ import annotations

import concurrent.futures
import os
import time
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

import httpx

from tests.api.crash_harness import ServerProcess
from tests.api.hostile_files import pages_pdf
from tests.support.shared_data import SHARED_DATA

PAGES = 8


@dataclass
class BurstResult:
    """What the bursts did to the server."""

    statuses: list[int] = field(default_factory=list)
    upload_statuses: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    alive: bool = True
    good_upload_after: int = 0


def burst_paper() -> bytes:
    """A real paper when ../shared/data (or $PAPERMIND_SHARED_DATA) is there, else generated."""
    data = Path(os.environ.get("PAPERMIND_SHARED_DATA", SHARED_DATA))
    real = sorted((data / "pdfs" / "science_parse").glob("*.pdf"))
    return real[0].read_bytes() if real else _pdf("Burst")


def _pdf(title: str, pages: int = PAGES) -> bytes:
    buffer = BytesIO()
    pages_pdf(buffer, pages, title)
    return buffer.getvalue()


def _get(base: str, path: str) -> int:
    try:
        return httpx.get(base + path, timeout=120).status_code
    except httpx.HTTPError:
        return -1  # connection refused or reset: the server died


def _upload(base: str, title: str) -> int:
    try:
        return httpx.post(base + "/api/papers", timeout=120,
                          files={"file": (f"{title}.pdf", _pdf(title))}).status_code
    except httpx.HTTPError:
        return -1


def run_bursts(work: Path, *, rounds: int, parallel: int = 40) -> BurstResult:
    """Start a server in ``work``, upload a paper, then fire ``rounds`` bursts."""
    work.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(work / "home", "http://127.0.0.1:9/v1", work / "server.log").start()
    result = BurstResult()
    try:
        with server.client() as client:
            paper_id = client.post("/api/papers", files={"file": ("burst.pdf", burst_paper())}
                                   ).json()["id"]
        for round_ in range(rounds):
            scale = 1.0 + 0.01 * (round_ + 1)  # off the cache grid: every request renders
            paths = [f"/api/papers/{paper_id}/pages/{i % PAGES + 1}.png?scale={scale}"
                     for i in range(parallel)]
            started = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(parallel + 1) as pool:
                upload = pool.submit(_upload, server.base, f"Parallel upload {round_}")
                result.statuses += list(pool.map(lambda p: _get(server.base, p), paths))
                result.upload_statuses.append(upload.result())
            result.seconds.append(time.perf_counter() - started)
        result.alive = server.proc is not None and server.proc.poll() is None
        if result.alive:
            result.good_upload_after = _upload(server.base, "A good paper afterwards")
    finally:
        server.stop()
    return result
