"""Library-wide search at scale on both storage backends: PostgreSQL (BM25 over the FTS5
terms of library/lexical_terms.py, pgvector HNSW) next to SQLite (FTS5, usearch HNSW):
p50/p95 per mode and the ANN's recall@10.

    .venv/bin/python bench/pg_scale.py [--size 100000] [--queries 100] [--pg URL]

Chunks: 50 per paper, text = 3-7 sentences drawn from the shared corpora (as in
bench/search_latency.py). Vectors: 384-dim unit vectors around 2,000 centres with noise 0.03
(as in bench/ann_scale.py: embedding-like, not real embeddings). A query is a real question
(QASPER / PubMedQA) for BM25 plus a perturbed held-out clustered vector for dense search.
Both libraries are bulk-loaded with the same rows, then searched through ``SearchIndex`` (the
real code path; ``ann_min_rows`` 20,000). Recall@10 = overlap of the library-wide ANN top 10
with exact search. Without ``--pg`` a pgserver (PostgreSQL 16 + pgvector) is started in a
temporary folder. CPU: this process's, and the PostgreSQL server processes' (psutil).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "bench")]

from ann_scale import clustered  # noqa: E402
from latency_library import PER_PAPER, SECTIONS, questions, sentences  # noqa: E402

from papermind.db import Database, SqlDatabase  # noqa: E402
from papermind.library.chunk_store import WORD  # noqa: E402
from papermind.library.fulltext import POSTINGS_BUDGET  # noqa: E402
from papermind.library.pg_postings import (  # noqa: E402
    REBUILD_POSTINGS,
    REMOVE,
    add_paper,
    remove_paper,
)
from papermind.library.pg_search import term_frequencies  # noqa: E402
from papermind.library.query import analyse  # noqa: E402
from papermind.library.search import SearchIndex, SearchOptions  # noqa: E402
from papermind.library.vectors import VectorIndex  # noqa: E402
from papermind.services.storage import open_database  # noqa: E402

DIM = 384
MODEL = "clustered-384"
NARROW_YEAR = 2003
"""Papers' years cycle through 2000-2024: one year is 4% of the chunks."""


class ScriptedEmbedder:
    """Query text -> its assigned clustered vector (documents are bulk-loaded)."""

    name = MODEL
    dim = DIM

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self.vectors = {analyse(q.strip()).dense_text: v for q, v in vectors.items()}

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        raise AssertionError("documents are bulk-loaded")

    def embed_query(self, text: str) -> np.ndarray:
        return self.vectors[text]


def corpus(size: int, seed: int) -> tuple[list[tuple], np.ndarray, dict[str, np.ndarray]]:
    """(rows, vectors, query -> vector): rows are (chunk_id, paper_id, kind, section_kind,
    section json, year, text, anchors json, content_hash, body)."""
    rng, nrng = random.Random(seed), np.random.default_rng(seed)
    pool = [s.replace("\x00", "") for s in sentences()]
    rows = []
    for i in range(size):
        paper, n = divmod(i, PER_PAPER)
        title, kind = SECTIONS[n * len(SECTIONS) // PER_PAPER]
        text = " ".join(rng.choices(pool, k=rng.randint(3, 7)))
        pid = f"{paper:064x}"
        rows.append((f"{pid}:{n}", pid, "content", kind, json.dumps([title]), 2000 + paper % 25,
                     text, json.dumps([{"paper_id": pid, "page": 1 + n // 5, "line_start": 1,
                                        "line_end": 9}]), f"{pid}{n:04d}", f"{title}\n{text}"))
    centres = nrng.standard_normal((2000, DIM)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    asked = list(dict.fromkeys(questions()))
    probes = clustered(len(asked), nrng, centres)
    return rows, clustered(size, nrng, centres), dict(zip(asked, probes, strict=True))


def load_sqlite(db: Database, rows: list[tuple], matrix: np.ndarray) -> float:
    SearchIndex(db, None)
    started = time.perf_counter()
    df: Counter[str] = Counter()
    with db.transaction() as conn:
        conn.executemany("INSERT INTO search_chunks VALUES (?,?,?,?,?,?,?,?,?,?)",
                         [(i + 1, *r[:9]) for i, r in enumerate(rows)])
        conn.executemany("INSERT INTO search_fts(rowid, body) VALUES (?, ?)",
                         [(i + 1, r[9]) for i, r in enumerate(rows)])
        conn.executemany("INSERT INTO search_embeddings VALUES (?,?,?,?)",
                         [(MODEL, r[8], DIM, v.astype(np.float16).tobytes())
                          for r, v in zip(rows, matrix, strict=True)])
        for r in rows:
            df.update(set(WORD.findall(r[9].lower())))
        conn.executemany("INSERT INTO search_terms VALUES (?, ?)", df.items())
        conn.execute("INSERT INTO search_changes(paper_id) VALUES ('*')")
    return time.perf_counter() - started


def load_pg(db: SqlDatabase, rows: list[tuple], matrix: np.ndarray) -> float:
    SearchIndex(db, None)
    raw = db.conn.raw
    started = time.perf_counter()
    df: Counter[str] = Counter(w for r in rows for w in set(WORD.findall(r[9].lower())))
    with raw.transaction():
        raw.execute("CREATE TEMP TABLE staging (chunk_id text, paper_id text, kind text,"
                    " section_kind text, section text, year int, text text, anchors text,"
                    " content_hash text, body_tf jsonb, body_len int) ON COMMIT DROP")
        with raw.cursor().copy("COPY staging FROM STDIN") as copy:
            for start in range(0, len(rows), 5000):
                part = rows[start:start + 5000]
                for r, tf in zip(part, term_frequencies([r[9] for r in part]), strict=True):
                    copy.write_row((*r[:9], *tf))
        raw.execute("INSERT INTO search_chunks(chunk_id, paper_id, kind, section_kind, section,"
                    " year, text, anchors, content_hash, body_tf, body_len) SELECT chunk_id,"
                    " paper_id, kind, section_kind, section, year, text, anchors, content_hash,"
                    " body_tf, body_len FROM staging")
        raw.execute("INSERT INTO search_lexemes SELECT grp, lexeme, COUNT(*) FROM search_chunks,"
                    " jsonb_object_keys(body_tf) AS lexeme GROUP BY grp, lexeme")
        raw.execute("UPDATE search_stats AS s SET chunks = c.n, tokens = c.t FROM (SELECT grp,"
                    " COUNT(*) AS n, SUM(body_len) AS t FROM search_chunks GROUP BY grp) AS c"
                    " WHERE s.grp = c.grp")
        raw.execute(REBUILD_POSTINGS)
        with raw.cursor().copy("COPY search_terms FROM STDIN") as copy:
            for term, n in df.items():
                copy.write_row((term, n))
        with raw.cursor().copy("COPY search_embeddings FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["text", "text", "int4", "vector"])
            for r, v in zip(rows, matrix, strict=True):
                copy.write_row((MODEL, r[8], DIM, v))
    raw.execute("VACUUM ANALYZE")  # the visibility map, for index-only scans of the postings
    return time.perf_counter() - started


def server_cpu(pids: list[int]) -> float:
    import psutil

    total = 0.0
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            for p in [proc, *proc.children(recursive=True)]:
                times = p.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            continue
    return total


def measure(index: SearchIndex, queries: list[str], pids: list[int],
            **filters: object) -> dict[str, str]:
    out = {}
    for mode in ("bm25", "dense", "hybrid"):
        wall, cpu = [], []
        server = server_cpu(pids)
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            index.search(q, mode=mode, k=10, **filters)  # type: ignore[arg-type]
            wall.append(1000 * (time.perf_counter() - t))
            cpu.append(1000 * (time.process_time() - c))
        server_ms = 1000 * (server_cpu(pids) - server) / len(queries)
        out[mode] = (f"{pct(wall, 50):.1f} / {pct(wall, 95):.1f} (cpu {pct(cpu, 50):.1f}"
                     + (f", server cpu {server_ms:.1f} mean" if pids else "") + ")")
    return out


def recall(index: SearchIndex, exact: object, vectors: list[np.ndarray]) -> float:
    found = []
    for v in vectors:
        ann = {r for r, _ in index.vectors.search(v, 10)}
        truth = {r for r, _ in exact.search(v, 10)}  # type: ignore[attr-defined]
        found.append(len(ann & truth) / 10)
    return statistics.mean(found)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def start_pgserver() -> tuple[str, list[int]]:
    import pgserver

    server = pgserver.get_server(Path(tempfile.mkdtemp(prefix="pg-scale-")), cleanup_mode="delete")
    start_pgserver.handle = server  # type: ignore[attr-defined]
    return server.get_uri(), [int(server.get_pid() or 0)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--ann-min-rows", type=int, default=20_000)
    parser.add_argument("--backends", default="postgres,sqlite")
    parser.add_argument("--pg", default="", help="postgresql:// URL of an empty database")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "pg_scale.md"))
    args = parser.parse_args()
    rows, matrix, probes = corpus(args.size, 0)
    queries = list(probes)[:args.queries]
    embedder = ScriptedEmbedder(probes)
    options = SearchOptions(ann_min_rows=args.ann_min_rows)
    url, pids = (args.pg, []) if args.pg else start_pgserver()
    report = [f"# Search at scale, both backends (bench/pg_scale.py)\n\nCommand: `.venv/bin/"
              f"python {' '.join(sys.argv)}`; {args.size:,} chunks, {len(queries)} queries, "
              f"load average {os.getloadavg()[0]:.1f} at the start.\n",
              "| backend | load s | index build s | bm25 ms p50 / p95 | dense ms p50 / p95 |"
              " hybrid ms p50 / p95 | ANN recall@10 |", "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            db = open_database(url) if backend == "postgres" else Database(Path(tmp) / "l.db")
            print(f"{backend}: loading", file=sys.stderr, flush=True)
            loaded = (load_pg if backend == "postgres" else load_sqlite)(db, rows, matrix)
            if backend == "postgres":
                db.execute("SET maintenance_work_mem = '1GB'")
            index = SearchIndex(db, embedder, options=options)  # type: ignore[arg-type]
            print(f"{backend}: building the ANN index", file=sys.stderr, flush=True)
            started = time.perf_counter()
            index.search(queries[0], mode="dense", k=10)  # builds HNSW (usearch) / opens it
            built = time.perf_counter() - started
            if backend == "postgres":
                report += pg_rows(index, queries, probes, pids, loaded, built)
            else:
                timing = measure(index, queries, [])
                exact = VectorIndex(db, index.store, MODEL, DIM, ann_min_rows=None)
                found = recall(index, exact, [probes[q] for q in queries])
                report.append(f"| sqlite | {loaded:.0f} | {built:.0f} | {timing['bm25']} |"
                              f" {timing['dense']} | {timing['hybrid']} | {found:.3f} |")
            print("\n".join(report[3:]), file=sys.stderr, flush=True)
            db.close()
    text = "\n".join(report) + "\n"
    print(text)
    Path(args.out).write_text(text)


def pg_rows(index: SearchIndex, queries: list[str], probes: dict[str, np.ndarray],
            pids: list[int], loaded: float, built: float) -> list[str]:
    """Both BM25 layouts on the same library, the ANN's recall, the BM25 cut's agreement
    with exact BM25 over every query lexeme, and the cost of rewriting one paper."""
    fulltext = index.fulltext
    found = recall(index, _Exact(index.vectors), [probes[q] for q in queries])
    lines = []
    for layout in ("postings", "scan"):
        fulltext.use_postings = layout == "postings"  # type: ignore[attr-defined]
        timing = measure(index, queries, pids)
        lines.append(f"| postgres ({layout}) | {loaded:.0f} | {built:.0f} | {timing['bm25']} |"
                     f" {timing['dense']} | {timing['hybrid']} | {found:.3f} |")
        print(lines[-1], file=sys.stderr, flush=True)
    lines += narrow(index, queries, pids)
    lines.append("")
    lines.append(f"BM25 top-10 overlap with exact BM25 over every query lexeme (first 30 queries):"
                 f" {agreement(index, queries[:30])}; rewriting one paper's postings (50 chunks):"
                 f" {rewrite_ms(index.db):.0f} ms.")
    return lines


def narrow(index: SearchIndex, queries: list[str], pids: list[int]) -> list[str]:
    """Filtered searches: three papers excluded (as older versions are), and one publication
    year (4% of the chunks) with FILTER_MIGRATION's indexes and then without them (dropped:
    the database is this run's own)."""
    papers = [r[0] for r in index.db.query("SELECT DISTINCT paper_id FROM search_chunks"
                                           " ORDER BY paper_id LIMIT 3")]
    runs = [("three papers excluded", {"exclude_papers": papers}),
            (f"year {NARROW_YEAR} only (4% of chunks), with the filter indexes",
             {"year_min": NARROW_YEAR, "year_max": NARROW_YEAR}),
            (f"year {NARROW_YEAR} only, without the filter indexes",
             {"year_min": NARROW_YEAR, "year_max": NARROW_YEAR})]
    lines = []
    for label, filters in runs:
        if "without" in label:
            index.db.execute("DROP INDEX search_chunks_section")
            index.db.execute("DROP INDEX search_chunks_year")
            index.db.execute("ANALYZE search_chunks")
        index.fulltext.use_postings = True  # type: ignore[attr-defined]
        timing = measure(index, queries, pids, **filters)
        lines.append(f"| postgres, {label} | - | - | {timing['bm25']} | {timing['dense']} |"
                     f" {timing['hybrid']} | - |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


def agreement(index: SearchIndex, queries: list[str]) -> str:
    fulltext = index.fulltext
    found: dict[str, list[float]] = {"postings": [], "scan": []}
    for q in queries:
        fulltext.use_postings, fulltext.postings_budget = False, 10**12  # type: ignore[attr-defined]
        truth = {h.chunk_id for h in index.search(q, mode="bm25", k=10)}
        fulltext.postings_budget = POSTINGS_BUDGET
        for layout in found:
            fulltext.use_postings = layout == "postings"  # type: ignore[attr-defined]
            got = {h.chunk_id for h in index.search(q, mode="bm25", k=10)}
            found[layout].append(len(got & truth) / max(1, len(truth)))
    return ", ".join(f"{layout} {statistics.mean(v):.3f}" for layout, v in found.items())


def rewrite_ms(db: SqlDatabase) -> float:
    """Delete and re-add one paper's postings (rolled back)."""
    import psycopg

    paper = db.query("SELECT paper_id FROM search_chunks ORDER BY id LIMIT 1")[0][0]
    plan = db.query(f"EXPLAIN {REMOVE}", (paper,))
    print("\n".join(str(r[0]) for r in plan), file=sys.stderr)
    started = time.perf_counter()
    try:
        with db.transaction() as conn:
            remove_paper(conn, paper)
            add_paper(conn, paper)
            elapsed = time.perf_counter() - started
            raise psycopg.Rollback()
    except psycopg.Rollback:
        pass
    return 1000 * elapsed


class _Exact:
    """PgVectorIndex's exact search under the DenseIndex name ``search``."""

    def __init__(self, vectors: object) -> None:
        self.vectors = vectors

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        return self.vectors.exact(vector, k)  # type: ignore[attr-defined,no-any-return]


if __name__ == "__main__":
    main()
