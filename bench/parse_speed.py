"""Pages/s of parse_file over ../shared/data/pdfs vs plain pypdfium2 text vs pymupdf4llm.

Run: .venv/bin/python bench/parse_speed.py   (writes bench/results/parse_speed.md)
Each engine runs in its own child process so that its peak memory (max RSS) is its own.
pymupdf4llm (AGPL) comes from the optional `bench` extra and is imported only here.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA") or ROOT.parent / "shared" / "data") / "pdfs"


def _papermind(paths: list[Path]) -> int:
    from papermind.ingest import parse_file
    return sum(len(parse_file(p).pages) for p in paths)


def _pypdfium2(paths: list[Path]) -> int:
    import pypdfium2 as pdfium
    pages = 0
    for path in paths:
        doc = pdfium.PdfDocument(path)
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
            pages += 1
        doc.close()
    return pages


def _pymupdf4llm(paths: list[Path]) -> int:
    import pymupdf
    import pymupdf4llm
    pages = 0
    for path in paths:
        pymupdf4llm.to_markdown(str(path), show_progress=False)
        with pymupdf.open(path) as doc:
            pages += doc.page_count
    return pages


ENGINES = {"papermind.parse_file": _papermind, "pypdfium2 plain text": _pypdfium2,
           "pymupdf4llm 2.0 markdown": _pymupdf4llm}


def child(engine: str) -> None:
    paths = sorted(DATA.rglob("*.pdf"))
    ENGINES[engine](paths[:1])  # warm up imports and caches
    started, cpu_started = time.perf_counter(), time.process_time()
    pages = ENGINES[engine](paths)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"pages": pages, "seconds": elapsed, "cpu": cpu, "peak_mb": peak_mb,
                      "files": len(paths)}))


def main() -> int:
    if not DATA.is_dir():
        print(f"shared data not found at {DATA}")
        return 1
    results = {}
    for engine in ENGINES:
        proc = subprocess.run([sys.executable, __file__, "--child", engine],
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            print(f"{engine}: failed\n{proc.stderr[-2000:]}")
            continue
        results[engine] = json.loads(proc.stdout.strip().splitlines()[-1])
    ours = results.get("papermind.parse_file")
    lines = ["| engine | pages | wall s | CPU s | pages/s (wall) | pages/s (CPU) | "
             "papermind / engine (CPU) | peak RSS MiB |", "|---|---|---|---|---|---|---|---|"]
    for engine, r in results.items():
        rate, cpu_rate = r["pages"] / r["seconds"], r["pages"] / r["cpu"]
        ratio = (ours["pages"] / ours["cpu"]) / cpu_rate if ours else float("nan")
        lines.append(f"| {engine} | {r['pages']} | {r['seconds']:.1f} | {r['cpu']:.1f} | "
                     f"{rate:.1f} | {cpu_rate:.1f} | {ratio:.2f}x | {r['peak_mb']:.0f} |")
    files = next(iter(results.values()))["files"] if results else 0
    report = "\n".join(lines) + (
        f"\n\n{files} PDFs under ../shared/data/pdfs, one run each, same machine; CPU time is "
        f"the fairer rate on a shared machine (load average {os.getloadavg()[0]:.1f}).\n")
    print(report)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "parse_speed.md").write_text(
        f"# parse_speed\n\nCommand: `.venv/bin/python bench/parse_speed.py`\n\n{report}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
        sys.exit(0)
    sys.exit(main())
