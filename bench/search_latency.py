"""Search latency and scale: 100k and 1M synthetic-but-realistic chunks.

    .venv/bin/python bench/search_latency.py [--sizes 100000,1000000] [--queries 200]
        [--lexical fts5,tantivy] [--vectors clustered]

The libraries (bench/latency_library.py): chunks of 3-7 real sentences from ../shared/data,
50 to a synthetic paper, through the real ChunkStore and EmbeddingCache. Vectors are
synthetic (384 dims): embedding 1M chunks with the CPU model would take days here. ``--vectors clustered`` (the
default) replaces them by unit vectors around 2,000 centres (embedding-like, as
bench/ann_scale.py; recall of HNSW on real e5 embeddings: bench/ann_real.py), and query
vectors are drawn the same way, so 'dense' and 'hybrid' times exclude embedding the query.
Every lexical backend in ``--lexical`` is measured on the same library in the same run
(FTS5 bm25(), the tantivy index of library/tantivy_index.py), with the tantivy build time
(wall and CPU) and its disk size. One thread for BLAS (single core). Reports build time,
disk, peak RSS, index load time, p50/p95 wall and CPU per mode, library-wide and within one
paper, and HNSW recall@10 against exact search.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from latency_library import ClusteredEmbedder, prepare, questions, revector, sentences  # noqa: E402

from papermind.library.search import SearchIndex  # noqa: E402
from papermind.library.tantivy_index import TantivyFullText  # noqa: E402
from papermind.library.vector_rows import exact  # noqa: E402
from papermind.library.vectors import VectorIndex  # noqa: E402


def timed(index: SearchIndex, queries: list[str], mode: str,
          paper: str | None) -> tuple[list[float], list[float]]:
    """Wall and process-CPU milliseconds per query (CPU time is robust to a busy machine)."""
    wall, cpu = [], []
    for query in queries:
        started, started_cpu = time.perf_counter(), time.process_time()
        index.search(query, mode=mode, k=10,  # type: ignore[arg-type]
                     paper_ids=[paper] if paper else None)
        wall.append(1000 * (time.perf_counter() - started))
        cpu.append(1000 * (time.process_time() - started_cpu))
    return wall, cpu


def folder_mib(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def lexical_backends(index: SearchIndex, names: list[str]) -> tuple[dict[str, object], str]:
    """The LexicalIndex of each name, and a line on how the tantivy one was built."""
    tantivy = index.fulltext
    assert isinstance(tantivy, TantivyFullText)
    backends: dict[str, object] = {}
    note = ""
    for name in names:
        if name == "fts5":
            backends[name] = tantivy.fallback
            continue
        assert tantivy.folder is not None
        shutil.rmtree(tantivy.folder, ignore_errors=True)
        tantivy.min_rows = 0
        started, started_cpu = time.perf_counter(), time.process_time()
        assert tantivy.synced() is not None
        wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        size = index.store.count()
        note = (f"tantivy index build {wall:.0f} s wall / {cpu:.0f} s CPU "
                f"({size / cpu:.0f} chunks per CPU-second), {folder_mib(tantivy.folder):.0f} MiB "
                f"on disk ({tantivy.folder.name}/)")
        backends[name] = tantivy
    return backends, note


def agreement(backends: dict[str, object], index: SearchIndex, queries: list[str]) -> str:
    """Mean overlap of the library-wide BM25 top 10 between the first two backends."""
    if len(backends) < 2:
        return ""
    names = list(backends)[:2]
    overlaps = []
    for query in queries:
        tops = []
        for name in names:
            index.fulltext = backends[name]  # type: ignore[assignment]
            tops.append({h.chunk_id for h in index.search(query, mode="bm25", k=10)})
        overlaps.append(len(tops[0] & tops[1]) / max(1, len(tops[0])))
    return (f"library-wide BM25 top-10 overlap {names[0]} vs {names[1]}: "
            f"{statistics.mean(overlaps):.2f} (mean over {len(queries)} queries)")


def recall_at_10(index: SearchIndex, probes: int = 100) -> str:
    """HNSW top 10 against exact top 10 for query vectors drawn like the stored ones."""
    vectors = index.vectors
    assert isinstance(vectors, VectorIndex)
    embedder = ClusteredEmbedder(seed=99)
    rows = vectors._every_row()
    if vectors._ann is None:
        return "HNSW not in use (fewer rows than search.ann_min_rows)"
    found = []
    for _ in range(probes):
        q = embedder.embed_query("")
        ann = {r for r, _ in vectors.search(q, 10)}
        truth = {r for r, _ in exact(rows, q, 10, None)}
        found.append(len(ann & truth) / 10)
    return f"HNSW recall@10 vs exact: {statistics.mean(found):.3f} ({probes} clustered probes)"


def cell(times: list[float]) -> str:
    return f"{statistics.median(times):.1f} | {statistics.quantiles(times, n=20)[-1]:.1f}"


HEADER = ["| mode | scope | lexical | p50 ms | p95 ms | CPU p50 ms | CPU p95 ms | CPU p50 vs fts5 |",
          "|---|---|---|---|---|---|---|---|"]


def measure(index: SearchIndex, backends: dict[str, object], queries: list[str],
            paper: str, modes: tuple[str, ...]) -> list[str]:
    """One table row per (scope, mode, lexical backend), with the CPU p50 ratio to the first
    backend (FTS5)."""
    lines = []
    first = next(iter(backends))
    for scope, pid in (("library", None), ("one paper", paper)):
        for mode in modes:
            base = None
            for name, backend in backends.items():
                if mode == "dense" and name != first:
                    continue
                index.fulltext = backend  # type: ignore[assignment]
                wall, cpu = timed(index, queries, mode, pid)
                p50 = statistics.median(cpu)
                base = p50 if base is None else base
                ratio = "" if mode == "dense" or name == first else f"{p50 / base:.2f}x"
                lines.append(f"| {mode} | {scope} | {name if mode != 'dense' else '-'} | "
                             f"{cell(wall)} | {cell(cpu)} | {ratio} |")
                print(lines[-1], file=sys.stderr)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "search_latency.md"))
    parser.add_argument("--bulk-above", type=int, default=200_000,
                        help="sizes above this are bulk-loaded (see bulk_build)")
    parser.add_argument("--replicate", default="",
                        help="build SIZE by copying the library.sqlite3 of a smaller run")
    parser.add_argument("--reuse", action="store_true",
                        help="measure the index already in --work instead of building one")
    parser.add_argument("--work", default="/tmp/papermind-latency",
                        help="scratch folder (deleted first)")
    parser.add_argument("--lexical", default="fts5,tantivy",
                        help="BM25 backends measured side by side (first = baseline)")
    parser.add_argument("--vectors", choices=["clustered", "as-stored"], default="clustered",
                        help="replace the stored vectors by clustered ones first")
    args = parser.parse_args()
    rng = random.Random(7)
    pool = sentences()
    queries = rng.sample(questions(), args.queries)
    lines = [f"# Search latency\n\nCommand: `.venv/bin/python {' '.join(sys.argv)}`\n",
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Sentence pool: "
             f"{len(pool)} sentences from shared data; {args.queries} real questions as "
             "queries; k=10; one BLAS thread. Dense vectors: "
             f"{args.vectors} (see the module docstring); dense/hybrid times exclude query "
             "embedding.\n"]
    for size in (int(s) for s in args.sizes.split(",")):
        index, facts, how = prepare(args, size, pool, rng)
        index.embedder = ClusteredEmbedder()  # type: ignore[assignment]
        revector_s = revector(index.db) if args.vectors == "clustered" else 0.0
        backends, note = lexical_backends(index, args.lexical.split(","))
        lines.append(f"## {size:,} chunks\n\nload average at start {os.getloadavg()[0]:.1f} "
                     f"(2 cores); {how}library build {facts['build_s']:.0f} s, SQLite disk "
                     f"{facts['disk_mb']:.0f} MiB; vectors replaced in {revector_s:.0f} s; "
                     f"{note}\n")
        lines[-1] = lines[-1].replace("reused library build nan s", "library reused")
        lines.append(agreement(backends, index, queries[:50]) + "\n")
        paper = index.store.paper_ids()[len(index.store.paper_ids()) // 2]
        lines += HEADER + measure(index, backends, queries, paper, ("bm25",))
        Path(args.out).write_text("\n".join(lines) + "\n")  # BM25 first: dense may be slow
        started, started_cpu = time.perf_counter(), time.process_time()
        index.search("warm up the vector index", mode="dense", k=10)
        lines.append(f"\nvector index load + HNSW build (or open) "
                     f"{time.perf_counter() - started:.0f} s wall / "
                     f"{time.process_time() - started_cpu:.0f} s CPU; "
                     f"{recall_at_10(index)}\n")
        lines += HEADER + measure(index, backends, queries, paper, ("dense", "hybrid"))
        lines.append(f"\nload average at end {os.getloadavg()[0]:.1f}; peak RSS "
                     f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB\n")
        Path(args.out).write_text("\n".join(lines) + "\n")
        index.db.close()
    text = "\n".join(lines)
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
