"""PDFium is used by one thread at a time: renders racing a parse never crash the process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.hostile_files import pages_pdf
from tests.support.shared_data import SHARED_DATA

REAL = SHARED_DATA / "pdfs" / "science_parse"


def _race(pdf: Path, threads: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.ingest.pdfium_race", str(pdf),
                           str(threads)], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])


def test_renders_racing_a_parse_of_a_real_paper_do_not_crash() -> None:
    papers = sorted(REAL.glob("*.pdf")) if REAL.is_dir() else []
    if not papers:
        pytest.skip(f"real papers not found at {REAL}")
    done = _race(papers[0], 40)  # segfaulted 3 times out of 3 before the lock covered renders
    assert done.returncode == 0 and done.stdout.strip() == "ok", (done.returncode, done.stderr)


def test_renders_racing_a_parse_of_a_generated_paper_succeed(tmp_path: Path) -> None:
    pdf = pages_pdf(tmp_path / "paper.pdf", pages=8)
    assert isinstance(pdf, Path)
    done = _race(pdf, 20)
    assert done.returncode == 0 and done.stdout.strip() == "ok", (done.returncode, done.stderr)
