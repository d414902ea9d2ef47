"""Parsing in a worker process under hard limits: bombs through every filter chain are
refused with one line, a crashed or killed worker refuses that file only, and the calling
process stays at its own memory."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import IngestSettings, load_settings
from papermind.errors import IngestError
from papermind.ingest.sandbox import Limits, ParseSandbox
from papermind.services.container import Container
from tests.api.hostile_files import pages_pdf
from tests.api.server import serve
from tests.ingest.bomb_files import bomb_pdf, double_flate_zeros, lzw_zeros

GIB = 2**30
NO_PRECHECK = IngestSettings(max_stream_mb=100_000, max_decoded_mb=100_000)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    return {
        "lzw-1g": bomb_pdf(folder / "lzw-1g.pdf", "/LZWDecode", lzw_zeros(GIB)),
        "flate2-1g": bomb_pdf(folder / "flate2-1g.pdf", "[/FlateDecode /FlateDecode]",
                              double_flate_zeros(1024)),
        "lzw-256m": bomb_pdf(folder / "lzw-256m.pdf", "/LZW", lzw_zeros(256 * 2**20)),
    }


def _parse_cli(path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "papermind", "parse", str(path)],
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("kind", ["lzw-1g", "flate2-1g", "lzw-256m"])
def test_parse_refuses_each_bomb_with_one_line(bombs: dict[str, Path], kind: str,
                                               home: Path) -> None:
    assert bombs[kind].stat().st_size < 500_000
    done = _parse_cli(bombs[kind])
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "more than 128 MiB (a decompression bomb?)" in done.stderr


def test_the_worker_limit_refuses_a_bomb_the_precheck_lets_through(
        bombs: dict[str, Path], home: Path) -> None:
    """The process limit is the guarantee: with the pre-parse check off, PDFium inflating
    1 GiB runs out of the worker's 600 MiB and the file is refused, in one line."""
    done = _parse_cli(bombs["lzw-1g"], PAPERMIND_INGEST__MAX_STREAM_MB="100000",
                      PAPERMIND_INGEST__MAX_DECODED_MB="100000",
                      PAPERMIND_INGEST__WORKER_MEMORY_MB="600")
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "could not be read: the parser" in done.stderr and "600 MiB" in done.stderr


def test_the_calling_process_stays_at_its_own_memory(bombs: dict[str, Path]) -> None:
    sandbox = ParseSandbox(Limits(memory_mb=600, cpu_s=60, timeout_s=120))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        for kind in ("lzw-1g", "flate2-1g"):
            with pytest.raises(IngestError, match="could not be read: the parser"):
                sandbox.parse(bombs[kind].read_bytes(), kind, NO_PRECHECK)
    finally:
        sandbox.close()
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 100, grown_mb


def test_a_worker_killed_mid_parse_refuses_that_file_and_the_next_one_parses(
        tmp_path: Path) -> None:
    pdf = pages_pdf(tmp_path / "paper.pdf", pages=400)  # a parse of ~2 CPU s: still running at the kill
    assert isinstance(pdf, Path)
    sandbox = ParseSandbox(Limits(memory_mb=2048, cpu_s=60, timeout_s=120))
    try:
        assert sandbox.render(pdf, 1, 0.5).startswith(b"\x89PNG")  # the worker is up
        proc = sandbox._proc
        assert proc is not None
        threading.Timer(0.3, os.kill, (proc.pid, signal.SIGKILL)).start()
        with pytest.raises(IngestError, match=r"b\.pdf could not be read: the parser crashed "
                                              r"\(SIGKILL\)"):
            sandbox.parse(pdf.read_bytes(), "b.pdf", IngestSettings())
        assert len(sandbox.parse(pdf.read_bytes(), "c.pdf", IngestSettings()).pages) == 400
    finally:
        sandbox.close()


def test_the_wall_clock_limit_kills_a_slow_parse(tmp_path: Path) -> None:
    pdf = pages_pdf(tmp_path / "paper.pdf", pages=40)
    assert isinstance(pdf, Path)
    sandbox = ParseSandbox(Limits(memory_mb=2048, cpu_s=60, timeout_s=0.05))
    try:
        with pytest.raises(IngestError, match="took longer than 0.05 s"):
            sandbox.parse(pdf.read_bytes(), "slow.pdf", IngestSettings())
        assert sandbox._proc is None  # killed; the next call starts a fresh worker
    finally:
        sandbox.close()


def test_upload_of_a_bomb_is_refused_and_the_server_goes_on(
        bombs: dict[str, Path], home: Path, tmp_path: Path) -> None:
    settings = load_settings(home).model_copy(update={"ingest": IngestSettings(
        max_stream_mb=100_000, max_decoded_mb=100_000, worker_memory_mb=600)})
    paper = pages_pdf(tmp_path / "paper.pdf", pages=2)
    assert isinstance(paper, Path)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=120) as client:
        for kind in ("lzw-1g", "flate2-1g"):
            refused = client.post("/api/papers", files={"file": (f"{kind}.pdf",
                                                                 bombs[kind].read_bytes())})
            assert refused.status_code == 422, refused.text
            assert "could not be read: the parser" in refused.json()["detail"]
        assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024 < 100
        added = client.post("/api/papers", files={"file": ("paper.pdf", paper.read_bytes())})
        assert added.status_code == 201, added.text
        image = client.get(f"/api/papers/{added.json()['id']}/pages/1.png")
        assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
        assert [p["id"] for p in client.get("/api/papers").json()] == [added.json()["id"]]


def test_the_cpu_limit_refuses_a_parse_that_uses_too_much(tmp_path: Path) -> None:
    pdf = pages_pdf(tmp_path / "long.pdf", pages=480)  # ~3 CPU s to lay out (max_pages is 500): over 1 + 1
    assert isinstance(pdf, Path)
    sandbox = ParseSandbox(Limits(memory_mb=2048, cpu_s=1, timeout_s=120))
    try:
        with pytest.raises(IngestError, match="used more than 1 s of CPU"):
            sandbox.parse(pdf.read_bytes(), "long.pdf", IngestSettings())
    finally:
        sandbox.close()


def test_a_batch_add_refuses_the_bomb_and_adds_the_rest(bombs: dict[str, Path], home: Path,
                                                        tmp_path: Path) -> None:
    paper = pages_pdf(tmp_path / "paper.pdf", pages=2)
    assert isinstance(paper, Path)
    settings = load_settings(home).model_copy(update={"ingest": IngestSettings(
        max_stream_mb=100_000, max_decoded_mb=100_000, worker_memory_mb=600)})
    box = Container(settings)
    try:
        bomb, added = box.library.add([bombs["flate2-1g"], paper])
    finally:
        box.close()
    assert bomb.status == "failed" and "could not be read: the parser" in bomb.reason
    assert added.status == "added"


def test_ocr_pages_in_the_worker_report_progress(tmp_path: Path) -> None:
    """A scan parsed in the worker: each OCR'd page reaches the caller as progress."""
    pytest.importorskip("rapidocr", reason="the 'ocr' extra (rapidocr) is not installed")
    from tests.ingest.scan_pdf import scanned_pdf, two_column_paper_pdf

    scan = scanned_pdf(two_column_paper_pdf(tmp_path / "paper.pdf"), tmp_path / "scan.pdf",
                       dpi=120)
    seen: list[tuple[int, int]] = []
    sandbox = ParseSandbox(Limits(memory_mb=2048, cpu_s=20, timeout_s=120))
    try:
        paper = sandbox.parse(scan.read_bytes(), "scan.pdf",
                              IngestSettings(ocr_page_cpu_s=60, ocr_dpi=120),
                              on_page=lambda done, total: seen.append((done, total)))
    finally:
        sandbox.close()
    total = len(paper.pages)
    assert seen == [(n, total) for n in range(1, total + 1)]
    assert paper.ocr_pages and paper.lines()
