"""OCR under an address-space limit: does a 150-dpi scan read within N MiB, and at what cost?

Builds a scan of examples/example_paper.pdf at 150 dpi (page 2 turned 90 degrees), then, for
each limit, reads every page by OCR (``ingest.pdf_scans.read_scanned``, default settings) in a
fresh child process under RLIMIT_AS = that limit, as the parsing worker does. Prints per
limit: ok / the one-line refusal, the child's CPU seconds and its peak address space.

    .venv/bin/python bench/ocr_memory.py [--limits 1024 1536 2048] [--src PATH]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import resource, sys, time
from pathlib import Path
import pypdfium2 as pdfium
from papermind.config import IngestSettings
from papermind.errors import IngestError
from papermind.ingest import parse, pdf_scans  # what the worker has loaded
limit = int(sys.argv[2]) << 20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
data = Path(sys.argv[1]).read_bytes()
n = len(pdfium.PdfDocument(data))
started = time.process_time()
try:
    pdf_scans.read_scanned(data, "scan.pdf", [None] * n, list(range(n)), IngestSettings())
    said = f"ok, {n} pages"
except IngestError as error:
    said = f"refused: {error}"
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmPeak"))
print(f"{said}; {time.process_time() - started:.1f} CPU s; peak address space "
      f"{int(peak) // 1024} MiB")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=int, nargs="+", default=[1024, 1536, 2048])
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the papermind source to measure (another checkout's src/)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.ingest.scan_pdf import scanned_pdf

    with tempfile.TemporaryDirectory() as folder:
        scan = scanned_pdf(ROOT / "examples" / "example_paper.pdf", Path(folder) / "scan.pdf",
                           dpi=150, sideways={2: 90})
        for limit in args.limits:
            done = subprocess.run([sys.executable, "-c", CHILD, str(scan), str(limit)],
                                  capture_output=True, text=True, cwd=ROOT,
                                  env={"PYTHONPATH": str(args.src), "PATH": "/usr/bin:/bin"})
            last = (done.stdout.strip().splitlines() or [done.stderr.strip()[-200:]])[-1]
            print(f"{limit} MiB: {last}", flush=True)


if __name__ == "__main__":
    main()
