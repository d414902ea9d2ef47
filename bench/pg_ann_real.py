"""pgvector HNSW recall@10 on real e5 embeddings, at several ``hnsw.ef_search``.

    .venv/bin/python bench/pg_ann_real.py [--cache /tmp/annreal/pool.npy] [--words 40,20,10]
        [--size 136153] [--ef 100,200,400,1000] [--queries 300]

The passage vectors are the ones bench/ann_real.py embedded and cached (run it first with the
same ``--cache`` and ``--words``); the queries are the same real QASPER and PubMedQA
questions. They go into one table of a throwaway pgserver (PostgreSQL 16 + pgvector) with the
library's HNSW settings (pg_vectors.HNSW_M, HNSW_EF_CONSTRUCTION, cosine), and each top 10 is
compared with the exact top 10 by row id. Wall ms per query include the SQL round trip.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ann_real import pool_file  # noqa: E402
from latency_library import questions  # noqa: E402

from papermind.library.embedders import E5OnnxEmbedder  # noqa: E402
from papermind.library.pg_vectors import HNSW_EF_CONSTRUCTION, HNSW_M  # noqa: E402


def literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.6f}" for x in vector) + "]"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", default="/tmp/annreal/pool.npy")
    parser.add_argument("--words", default="40,20,10")
    parser.add_argument("--size", type=int, default=0, help="first N vectors (0: all)")
    parser.add_argument("--ef", default="100,200,400,1000")
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    import pgserver
    import psycopg

    cache = Path(args.cache)
    sizes = [int(w) for w in args.words.split(",")]
    pool = np.concatenate([np.load(pool_file(cache, w, pooled=len(sizes) > 1))
                           for w in sizes]).astype(np.float32)
    pool = pool[:args.size or len(pool)]
    embedder = E5OnnxEmbedder(threads=2, cache_dir=cache.parent / "models")
    probes = np.stack([embedder.embed_query(q) for q in questions()[:args.queries]])
    scores = pool @ probes.T.astype(np.float32)
    truth = [set(np.argpartition(-scores[:, i], 9)[:10].tolist()) for i in range(len(probes))]
    server = pgserver.get_server(Path(tempfile.mkdtemp(prefix="pg-ann-")), cleanup_mode="delete")
    print(f"Command: `.venv/bin/python {' '.join(sys.argv)}`\n\n"
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {len(pool):,} real e5 vectors, "
          f"{len(probes)} real questions; HNSW m={HNSW_M}, ef_construction={HNSW_EF_CONSTRUCTION}.\n")
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(f"CREATE TABLE v (id int PRIMARY KEY, e vector({pool.shape[1]}))")
        started = time.perf_counter()
        with conn.cursor().copy("COPY v (id, e) FROM STDIN") as copy:
            for i, row in enumerate(pool):
                copy.write_row((i, literal(row)))
        loaded = time.perf_counter() - started
        conn.execute("SET maintenance_work_mem = '2GB'")
        started = time.perf_counter()
        conn.execute(f"CREATE INDEX ON v USING hnsw (e vector_cosine_ops) WITH (m = {HNSW_M},"
                     f" ef_construction = {HNSW_EF_CONSTRUCTION})")
        print(f"load {loaded:.0f} s, HNSW build {time.perf_counter() - started:.0f} s wall\n")
        print("| ef_search | recall@10 mean | worst query | wall ms p50 |\n|---|---|---|---|")
        for ef in (int(e) for e in args.ef.split(",")):
            conn.execute(f"SET hnsw.ef_search = {ef}")
            found, ms = [], []
            for query, top in zip(probes, truth, strict=True):
                started = time.perf_counter()
                rows = conn.execute("SELECT id FROM v ORDER BY e <=> %s::vector LIMIT 10",
                                    (literal(query),)).fetchall()
                ms.append(1000 * (time.perf_counter() - started))
                found.append(len({r[0] for r in rows} & top) / 10)
            print(f"| {ef} | {statistics.mean(found):.3f} | {min(found):.1f} | "
                  f"{statistics.median(ms):.1f} |", flush=True)


if __name__ == "__main__":
    main()
