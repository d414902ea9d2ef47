"""The parsing workers form a pool with a lane per kind: a page image and a small file never
wait behind a long parse; the workers' memory limit follows the process's own."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from papermind.config import IngestSettings
from papermind.ingest.sandbox import Limits, memory_cap_mb
from papermind.ingest.sandbox_pool import SandboxPool
from tests.api.hostile_files import pages_pdf

REPO = Path(__file__).resolve().parents[2]


def test_a_page_and_a_small_file_do_not_wait_behind_a_long_parse(tmp_path: Path) -> None:
    long_pdf = pages_pdf(tmp_path / "long.pdf", pages=400)  # ~2 CPU s of parsing
    small_pdf = pages_pdf(tmp_path / "small.pdf", pages=1)
    assert isinstance(long_pdf, Path) and isinstance(small_pdf, Path)
    data = long_pdf.read_bytes()
    pool = SandboxPool(Limits(memory_mb=2048, cpu_s=60, timeout_s=120),
                       {"pages": 1, "small": 1, "large": 1}, small_bytes=len(data) - 1)
    finished: dict[str, float] = {}
    try:
        pool.render(small_pdf, 1, 0.5)  # the pages and small workers are up
        pool.parse(small_pdf.read_bytes(), "warm.pdf", IngestSettings())

        def long_parse() -> None:
            pool.parse(data, "long.pdf", IngestSettings())
            finished["long"] = time.monotonic()
        worker = threading.Thread(target=long_parse)
        worker.start()
        time.sleep(0.3)  # the long parse is under way in the 'large' lane
        assert pool.render(small_pdf, 1, 0.5).startswith(b"\x89PNG")
        finished["page"] = time.monotonic()
        assert len(pool.parse(small_pdf.read_bytes(), "s.pdf", IngestSettings()).pages) == 1
        finished["small"] = time.monotonic()
        worker.join()
    finally:
        pool.close()
    assert finished["page"] < finished["long"] and finished["small"] < finished["long"]


def test_lanes_by_size() -> None:
    pool = SandboxPool(Limits(2048, 60, 120), {}, small_bytes=100)
    assert pool.lane_of_parse(99) == "small" and pool.lane_of_parse(100) == "large"


def test_the_worker_memory_follows_a_lower_process_limit(tmp_path: Path) -> None:
    small_pdf = pages_pdf(tmp_path / "small.pdf", pages=1)
    code = (
        "import resource, sys\n"
        "limit = 1536 * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        "from papermind.config import IngestSettings\n"
        "from papermind.ingest.sandbox import Limits, ParseSandbox\n"
        "settings = IngestSettings()\n"
        "limits = Limits.of(settings)\n"
        "box = ParseSandbox(limits)\n"
        f"paper = box.parse(open({str(small_pdf)!r}, 'rb').read(), 's.pdf', settings)\n"
        "box.close()\n"
        "print(limits.memory_mb, len(paper.pages))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(REPO / "src"),
                                            "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["1536", "1"]
    assert memory_cap_mb(10**9) >= 1  # no limit here: the wanted value passes
