"""OCR within the parsing worker's default limits: pages read one at a time, memory given back
between them, and a page that does not fit refused in one line naming the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import IngestSettings
from papermind.errors import IngestError
from papermind.ingest import ocr_engine, pdf_scans
from papermind.ingest.layout import LaidOutPage
from papermind.ingest.sandbox import Limits, ParseSandbox, pdf_engine
from papermind.ingest.sandbox_pool import SandboxPool
from tests.ingest.scan_pdf import scanned_pdf

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"
needs_ocr = pytest.mark.skipif(not ocr_engine.available(),
                               reason="the 'ocr' extra (rapidocr) is not installed")


def test_memory_errors_are_told_apart() -> None:
    assert ocr_engine.out_of_memory(MemoryError())
    assert ocr_engine.out_of_memory(RuntimeError(
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: "
        "std::bad_alloc"))
    assert ocr_engine.out_of_memory(RuntimeError("Failed to allocate memory for requested "
                                                 "buffer of size 123"))
    assert ocr_engine.out_of_memory(RuntimeError(
        "PosixThread: pthread_create failed, error code: 12 error msg: Cannot allocate memory"))
    assert not ocr_engine.out_of_memory(RuntimeError("invalid input shape"))


def test_pages_are_read_one_at_a_time_with_memory_given_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def read(data: bytes, index: int, settings: IngestSettings) -> LaidOutPage:
        calls.append(f"read {index}")
        if index == 2:
            raise RuntimeError("Exception during initialization: std::bad_alloc")
        return LaidOutPage(number=index + 1, width=1.0, height=1.0, ocr=True)

    monkeypatch.setattr(pdf_scans, "_read_page", read)
    monkeypatch.setattr(ocr_engine, "release_memory", lambda: calls.append("release"))
    pages: list[LaidOutPage] = [LaidOutPage(number=n, width=1, height=1) for n in (1, 2, 3)]
    heard: list[tuple[int, int]] = []
    settings = IngestSettings(worker_memory_mb=1000)
    with pytest.raises(IngestError) as refused:
        pdf_scans.read_scanned(b"%PDF", "scan.pdf", pages, [0, 1, 2], settings,
                               on_page=lambda done, total: heard.append((done, total)))
    assert calls == ["read 0", "release", "read 1", "release", "read 2", "release"]
    assert heard == [(1, 3), (2, 3)], "progress per page"
    message = str(refused.value)
    assert "\n" not in message and "page 3" in message and "scan.pdf" in message
    assert "ingest.worker_memory_mb = 1000 MiB" in message
    assert refused.value.hint and "ingest.worker_memory_mb" in refused.value.hint


def test_other_engine_errors_are_not_called_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: bytes, index: int, settings: IngestSettings) -> LaidOutPage:
        raise ValueError("a bug")

    monkeypatch.setattr(pdf_scans, "_read_page", broken)
    with pytest.raises(ValueError, match="a bug"):
        pdf_scans.read_scanned(b"%PDF", "scan.pdf", [], [0], IngestSettings())


@needs_ocr
@pytest.mark.slow
def test_a_150_dpi_scan_with_a_turned_page_adds_under_the_default_limits(
        tmp_path: Path) -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    scan = scanned_pdf(EXAMPLE, tmp_path / "scan.pdf", dpi=150, sideways={2: 90})
    settings = IngestSettings()  # the defaults: the worker's 2,048 MiB, 60 CPU s a page
    engine = pdf_engine(settings)
    assert isinstance(engine, ParseSandbox | SandboxPool), \
        "read in the limited workers, as users get it"
    heard: list[tuple[int, int]] = []
    paper = engine.parse(scan.read_bytes(), scan.name, settings,
                         on_page=lambda done, total: heard.append((done, total)))
    assert heard == [(n, 4) for n in range(1, 5)]
    assert [p.number for p in paper.pages if p.ocr] == [1, 2, 3, 4]
    assert paper.pages[1].rotation == 270, "the sideways page was turned upright"
    assert "retrieval" in " ".join(line.text for line in paper.pages[0].lines).lower()


@needs_ocr
def test_a_page_that_does_not_fit_is_refused_in_one_line(tmp_path: Path) -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    scan = scanned_pdf(EXAMPLE, tmp_path / "scan.pdf", dpi=150)
    settings = IngestSettings(worker_memory_mb=640)  # too small for the OCR engine
    with pytest.raises(IngestError) as refused:
        ParseSandbox(Limits.of(settings)).parse(scan.read_bytes(), scan.name, settings)
    message = str(refused.value)
    assert "Traceback" not in message and "\n" not in message
    assert "page 1" in message and "ingest.worker_memory_mb = 640 MiB" in message
