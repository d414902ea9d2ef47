"""HNSW (library/ann.py) against exact search: build time, disk, query p50/p95, recall@10.

    .venv/bin/python bench/ann_scale.py [--sizes 100000,1000000] [--queries 200]

Vectors are 384-dim unit vectors drawn around 2,000 cluster centres (embedding-like: real
embeddings cluster by topic; pure random vectors are the worst case for HNSW and unlike any
text). Queries are perturbed copies of held-out points. One thread for building and for
search (BLAS too), CPU time reported beside wall time: the machine is shared.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.library.ann import UsearchAnn  # noqa: E402

DIM = 384


def clustered(n: int, rng: np.random.Generator, centres: np.ndarray) -> np.ndarray:
    out = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 100_000):
        m = min(n, start + 100_000) - start
        picks = centres[rng.integers(0, len(centres), m)]
        block = picks + 0.03 * rng.standard_normal((m, DIM)).astype(np.float32)
        out[start:start + m] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def run(size: int, queries: int, rng: np.random.Generator) -> str:
    centres = rng.standard_normal((2000, DIM)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    data = clustered(size, rng, centres)
    probe = clustered(queries, rng, centres)
    ann = UsearchAnn(DIM, threads=1)
    cpu, wall = time.process_time(), time.perf_counter()
    ann.add(np.arange(size), data)
    build_cpu, build_wall = time.process_time() - cpu, time.perf_counter() - wall
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.usearch"
        ann.save(path, {"size": size})
        disk = path.stat().st_size / 2**20
        viewed = UsearchAnn.open(path, DIM, {"size": size})
        assert viewed is not None
        ann_ms, exact_ms, recall = [], [], []
        matrix16 = data.astype(np.float16).astype(np.float32)  # what VectorIndex holds
        for q in probe:
            t = time.perf_counter()
            got = {r for r, _ in viewed.search(q, 10)}
            ann_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            scores = matrix16 @ q
            top = np.argpartition(-scores, 9)[:10]
            exact_ms.append((time.perf_counter() - t) * 1000)
            recall.append(len(got & set(top.tolist())) / 10)
        del viewed

    def pct(xs: list[float], p: float) -> float:
        return statistics.quantiles(xs, n=100)[int(p) - 1]
    return (f"| {size:,} | {build_cpu:.0f} s cpu ({build_wall:.0f} s wall) | {disk:.0f} MiB | "
            f"{statistics.median(ann_ms):.2f} / {pct(ann_ms, 95):.2f} | "
            f"{statistics.median(exact_ms):.1f} / {pct(exact_ms, 95):.1f} | "
            f"{statistics.mean(recall):.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| vectors | HNSW build | disk | HNSW ms p50 / p95 | exact ms p50 / p95 | recall@10 |")
    print("|---|---|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        print(run(size, args.queries, np.random.default_rng(size)), flush=True)


if __name__ == "__main__":
    main()
