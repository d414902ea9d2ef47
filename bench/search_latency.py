"""Search latency and scale: 100k and 1M synthetic-but-realistic chunks.

    .venv/bin/python bench/search_latency.py [--sizes 100000,1000000] [--queries 200]
        [--lexical fts5,tantivy] [--vectors clustered]

Chunks are 3-7 sentences drawn at random from real papers in ../shared/data (ICLR, QASPER,
PubMedQA texts), grouped 50 to a synthetic paper, written through the real ChunkStore
(chunk rows + FTS5) and EmbeddingCache (float16 blobs). Vectors are synthetic (384 dims):
embedding 1M chunks with the CPU model would take days here. ``--vectors clustered`` (the
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
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.db import Database  # noqa: E402
from papermind.domain import Anchor, Chunk  # noqa: E402
from papermind.library.embedders import normalise  # noqa: E402
from papermind.library.fulltext import NO_FILTERS  # noqa: E402
from papermind.library.search import SearchIndex  # noqa: E402
from papermind.library.tantivy_index import TantivyFullText  # noqa: E402
from papermind.library.vectors import VectorIndex, _exact  # noqa: E402

DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))
WORK = Path("/tmp/papermind-latency")  # --work
DIM = 384
PER_PAPER = 50
SECTIONS = [("Introduction", "introduction"), ("Method", "method"),
            ("Experiments", "experiments"), ("Results", "results"), ("Related Work", "related_work")]


CENTRES = 2000
NOISE = 0.03


def clustered(n: int, rng: np.random.Generator, centres: np.ndarray) -> np.ndarray:
    """Unit vectors around ``centres`` (as bench/ann_scale.py)."""
    picks = centres[rng.integers(0, len(centres), n)]
    block = picks + NOISE * rng.standard_normal((n, DIM)).astype(np.float32)
    return block / np.linalg.norm(block, axis=1, keepdims=True)


def centres(seed: int = 11) -> np.ndarray:
    found = np.random.default_rng(seed).standard_normal((CENTRES, DIM)).astype(np.float32)
    return found / np.linalg.norm(found, axis=1, keepdims=True)


class ClusteredEmbedder:
    """Query vectors drawn like the stored ones (``revector``): embedding-like geometry."""

    name = "random-384"
    dim = DIM

    def __init__(self, seed: int = 5) -> None:
        self.rng = np.random.default_rng(seed)
        self.centres = centres()

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return clustered(len(texts), self.rng, self.centres)

    def embed_query(self, text: str) -> np.ndarray:
        return clustered(1, self.rng, self.centres)[0]


def revector(db: Database, seed: int = 3) -> float:
    """Replace every stored embedding by a clustered one (once per library: a marker file
    says it was done); returns seconds taken."""
    assert isinstance(db.path, Path)
    marker = db.path.with_name("vectors-clustered")
    if marker.exists():
        return 0.0
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    hashes = [r[0] for r in db.query("SELECT content_hash FROM search_embeddings")]
    middle = centres()
    for start in range(0, len(hashes), 100_000):
        part = hashes[start:start + 100_000]
        vectors = clustered(len(part), rng, middle).astype(np.float16)
        with db.transaction() as conn:
            conn.executemany("UPDATE search_embeddings SET vector = ? WHERE model = ? AND"
                             " content_hash = ?", [(v.tobytes(), ClusteredEmbedder.name, h)
                                                  for v, h in zip(vectors, part, strict=True)])
    with db.transaction() as conn:
        conn.execute("INSERT INTO search_changes(paper_id) VALUES ('*')")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    marker.write_text("clustered\n")
    return time.perf_counter() - started


class RandomEmbedder:
    """Random unit vectors (the dense matrix's content does not change brute-force cost)."""

    name = "random-384"
    dim = DIM

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return normalise(self.rng.standard_normal((len(texts), DIM)))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self.rng.standard_normal(DIM))


def sentences() -> list[str]:
    texts: list[str] = []
    for path in sorted((DATA / "iclr_bench" / "papers").glob("*"))[:60]:
        texts.append(path.read_text(errors="ignore"))
    for line in (DATA / "qasper_subset" / "scientific_qa_dev.jsonl").read_text().splitlines():
        texts.append(json.loads(line)["input"])
    for item in json.loads((DATA / "pubmedqa" / "pqal_dev.json").read_text()).values():
        texts.extend(item["CONTEXTS"])
    found = re.split(r"(?<=[.!?])\s+", " ".join(" ".join(texts).split()))
    return [s for s in found if 30 <= len(s) <= 400]


def questions() -> list[str]:
    found = [q for line in (DATA / "qasper_subset" / "scientific_qa_dev.jsonl").read_text()
             .splitlines() for q in json.loads(line)["instructions"]]
    found += [item["QUESTION"] for item in
              json.loads((DATA / "pubmedqa" / "pqal_dev.json").read_text()).values()]
    return found


def build(size: int, pool: list[str], rng: random.Random) -> tuple[SearchIndex, dict]:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    db = Database(WORK / "library.sqlite3")
    index = SearchIndex(db, RandomEmbedder())  # type: ignore[arg-type]
    assert index.cache is not None
    started = time.perf_counter()
    for p in range(size // PER_PAPER):
        paper_id = f"{p:064x}"
        chunks, bodies = [], []
        for n in range(PER_PAPER):
            title, kind = SECTIONS[n * len(SECTIONS) // PER_PAPER]
            text = " ".join(rng.choices(pool, k=rng.randint(3, 7)))
            chunk = Chunk(id=f"{paper_id}:{n}", paper_id=paper_id, section_path=[title],
                          section_kind=kind, text=text, year=2000 + p % 25,  # type: ignore[arg-type]
                          anchors=[Anchor(paper_id=paper_id, page=1 + n // 5, line_start=1,
                                          line_end=9)], content_hash=f"{paper_id}{n:04d}")
            chunks.append(chunk)
            bodies.append(f"{title}\n{text}")
        with db.transaction():
            index.cache.store([c.content_hash for c in chunks],
                              index.cache.embedder.embed_documents(bodies))
            index.store.replace_paper(paper_id, chunks, bodies)
        if p % 200 == 0:
            print(f"\r  {size}: {(p + 1) * PER_PAPER} chunks", end="", file=sys.stderr)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    build_s = time.perf_counter() - started
    disk = sum(f.stat().st_size for f in WORK.iterdir() if f.is_file())
    # the vector index loads in main, after the vectors are replaced
    return index, {"build_s": build_s, "disk_mb": disk / 2**20, "load_s": float("nan")}


def bulk_build(size: int, pool: list[str], rng: random.Random) -> tuple[SearchIndex, dict]:
    """The same tables filled with executemany in large transactions (for 1M chunks).

    Writing paper by paper through ChunkStore.replace_paper runs at the rate the 100k section
    reports; at 1M that takes hours on this shared 2-core machine, so the 1M index is loaded in
    bulk. Searching then uses the real code path.
    """
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    db = Database(WORK / "library.sqlite3")
    index = SearchIndex(db, RandomEmbedder())  # type: ignore[arg-type]
    vectors = RandomEmbedder(1)
    df: Counter[str] = Counter()
    started = time.perf_counter()
    for start in range(0, size, 50_000):
        rows, fts, embeddings = [], [], []
        for i in range(start, min(size, start + 50_000)):
            paper, n = divmod(i, PER_PAPER)
            title, kind = SECTIONS[n * len(SECTIONS) // PER_PAPER]
            text = " ".join(rng.choices(pool, k=rng.randint(3, 7)))
            body = f"{title}\n{text}"
            df.update(set(re.findall(r"[a-z0-9]+", body.lower())))
            pid = f"{paper:064x}"
            rows.append((i + 1, f"{pid}:{n}", pid, "content", kind, json.dumps([title]),
                         2000 + paper % 25, text,
                         json.dumps([{"paper_id": pid, "page": 1 + n // 5, "line_start": 1,
                                      "line_end": 9}]), f"{pid}{n:04d}"))
            fts.append((i + 1, body))
        matrix = vectors.embed_documents(["x"] * len(rows)).astype(np.float16)
        embeddings = [(vectors.name, r[9], DIM, v.tobytes()) for r, v in zip(rows, matrix, strict=True)]
        with db.transaction() as conn:
            conn.executemany("INSERT INTO search_chunks VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
            conn.executemany("INSERT INTO search_fts(rowid, body) VALUES (?, ?)", fts)
            conn.executemany("INSERT INTO search_embeddings VALUES (?,?,?,?)", embeddings)
        print(f"\r  {size}: {start + len(rows)} chunks (bulk)", end="", file=sys.stderr)
    with db.transaction() as conn:
        conn.executemany("INSERT INTO search_terms VALUES (?, ?)", df.items())
        conn.execute("INSERT INTO search_changes(paper_id) VALUES ('*')")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    build_s = time.perf_counter() - started
    disk = sum(f.stat().st_size for f in WORK.iterdir() if f.is_file())
    # the vector index loads in main, after the vectors are replaced
    return index, {"build_s": build_s, "disk_mb": disk / 2**20, "load_s": float("nan")}


def replicate(source: Path, factor: int) -> tuple[SearchIndex, dict]:
    """``factor`` copies of the index in ``source`` (new ids, papers and hashes), in SQL.

    Faster than generating text in Python on a busy 2-core machine: 1M chunks = 10 copies of
    the 100k set, so posting lists are 10x longer, as in a 10x larger library.
    """
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    db = Database(WORK / "library.sqlite3")
    index = SearchIndex(db, RandomEmbedder())  # type: ignore[arg-type]
    started = time.perf_counter()
    db.execute("ATTACH DATABASE ? AS src", (str(source),))
    n = int(db.query("SELECT MAX(id) FROM src.search_chunks")[0][0])
    for copy in range(factor):
        tag = f"{copy:02d}"
        with db.transaction() as conn:
            conn.execute(
                "INSERT INTO search_chunks SELECT id + ?, ? || substr(chunk_id, 3), ? ||"
                " substr(paper_id, 3), kind, section_kind, section, year, text, anchors,"
                " ? || substr(content_hash, 3) FROM src.search_chunks", (copy * n, tag, tag, tag))
            conn.execute("INSERT INTO search_fts(rowid, body) SELECT rowid + ?, body"
                         " FROM src.search_fts", (copy * n,))
            conn.execute("INSERT INTO search_embeddings SELECT model, ? || substr(content_hash,"
                         " 3), dim, vector FROM src.search_embeddings", (tag,))
        print(f"\r  copy {copy + 1}/{factor}", end="", file=sys.stderr)
    with db.transaction() as conn:
        conn.execute("INSERT INTO search_terms SELECT term, df * ? FROM src.search_terms",
                     (factor,))
        conn.execute("INSERT INTO search_changes(paper_id) VALUES ('*')")
    db.execute("DETACH DATABASE src")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    build_s = time.perf_counter() - started
    disk = sum(f.stat().st_size for f in WORK.iterdir() if f.is_file())
    # the vector index loads in main, after the vectors are replaced
    return index, {"build_s": build_s, "disk_mb": disk / 2**20, "load_s": float("nan")}


def reopen() -> tuple[SearchIndex, dict]:
    """The index a previous run left in --work (build time not measured again)."""
    index = SearchIndex(Database(WORK / "library.sqlite3"), RandomEmbedder())  # type: ignore[arg-type]
    disk = sum(f.stat().st_size for f in WORK.iterdir() if f.is_file())
    # the vector index loads later (main), after the vectors are replaced
    return index, {"build_s": float("nan"), "disk_mb": disk / 2**20, "load_s": float("nan")}


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
    rows = vectors._all
    if rows is None or vectors._ann is None:
        return "HNSW not in use (fewer rows than search.ann_min_rows)"
    found = []
    for _ in range(probes):
        q = embedder.embed_query("")
        ann = {r for r, _ in vectors.search(q, 10)}
        exact = {r for r, _ in _exact(rows, q, 10, NO_FILTERS)}
        found.append(len(ann & exact) / 10)
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


def prepare(args: argparse.Namespace, size: int, pool: list[str],
            rng: random.Random) -> tuple[SearchIndex, dict, str]:
    bulk = size > args.bulk_above
    if args.reuse and (WORK / "library.sqlite3").exists():
        index, facts = reopen()
    elif args.replicate:
        source = Path(args.replicate)
        copies = size // int(Database(source).query("SELECT COUNT(*) FROM search_chunks")[0][0])
        index, facts = replicate(source, copies)
    else:
        index, facts = (bulk_build if bulk else build)(size, pool, rng)
    how = "copied (see replicate) " if args.replicate and not args.reuse else \
        "reused " if args.reuse else "bulk " if bulk else ""
    return index, facts, how


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
    global WORK
    WORK = Path(args.work)
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
