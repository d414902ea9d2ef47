"""HNSW recall@10 on real e5 embeddings of real paper text (library/ann.py settings).

    .venv/bin/python bench/ann_real.py [--minutes 20] [--words 40[,20,10]] [--queries 300]
        [--real-sizes 1000,...,all] [--derived-sizes 300000,1000000] [--build-threads 2]

bench/ann_scale.py and bench/search_latency.py use synthetic clustered vectors (1M chunks
cannot be embedded on this machine). This bench embeds as many real passages as a time
budget allows with the default embedder (e5 on onnxruntime, ``passage:`` prefix) and
asks the questions of QASPER and PubMedQA through ``embed_query``, then compares the usearch
HNSW top 10 (M 16, efConstruction 128, float16, as library/ann.py builds it; each ``--ef``)
with exact float16 search. Passages are windows of ``--words`` words from the ICLR, QASPER
and PubMedQA texts in ../shared/data (shorter than real 220-token chunks so that more fit
the budget; vectors of the same model and text domain). Embeddings are cached in --cache, so a rerun
continues where the last one stopped. ``--words 40,20,10`` pools windows of each length
(each its own cache file, ``<cache>.w<N>.npy`` when more than one): the same texts cut
finer, so that more real vectors exist than the 40-word pool alone holds (~19.5k).
``--from-db`` adds the cached e5 vectors of real 220-token chunks from search libraries
(e.g. bench/search_quality.py's cache).

Recall is counted twice: against the exact top 10 by row id, and with ties counted (a
returned row whose exact cosine equals or beats the exact 10th's is right: the float16
vectors tie often, and short generic questions have flat neighbourhoods). The last column
counts the questions whose true best cosine clears e5's largest relevance floor while the
best that HNSW returned does not: those a search at that ef alone would refuse as "no good
match" (SearchIndex then looks again ``HARDER`` times wider: the row with that ef).

Real vectors are few on this machine, and HNSW is near-exact at a few thousand points, so
the table also has clearly labelled synthetic rows at scale: vectors drawn from a Gaussian
fitted to the real ones (their mean and covariance: the anisotropy of e5, mean cosine ~0.8),
searched with the real query vectors. ``--derived-sizes`` adds rows nearer to real: each
real vector is kept, and new ones are drawn between a real vector and one of its ten nearest
real neighbours (a random point on the segment, renormalised), so topical islands (a few
medical abstracts among ML papers) grow with the library instead of dissolving into a
Gaussian; still not real model outputs, and labelled so.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from latency_library import questions  # noqa: E402

from papermind.library.ann import UsearchAnn  # noqa: E402
from papermind.library.embedders import E5Embedder, E5OnnxEmbedder  # noqa: E402

FLOOR = max(f for _, f in E5Embedder.relevance_floor)  # a large library's "no good match"
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))


def passages(words: int) -> list[str]:
    texts = [p.read_text(errors="ignore") for p in sorted((DATA / "iclr_bench" / "papers").glob("*"))]
    texts += [json.loads(line)["input"] for line in
              (DATA / "qasper_subset" / "scientific_qa_dev.jsonl").read_text().splitlines()]
    texts += [" ".join(item["CONTEXTS"]) for item in
              json.loads((DATA / "pubmedqa" / "pqal_dev.json").read_text()).values()]
    out = []
    for text in texts:
        tokens = text.split()
        out += [" ".join(tokens[i:i + words]) for i in range(0, len(tokens) - words // 2, words)]
    order = np.random.default_rng(0).permutation(len(out))  # every source in any prefix
    return [out[i] for i in order]


def pool_file(cache: Path, words: int, *, pooled: bool) -> Path:
    """Where the vectors of the ``words``-word windows are cached (``cache`` itself when only
    one window length is pooled)."""
    return cache.with_suffix(f".w{words}.npy") if pooled else cache


def embed_for(minutes: float, texts: list[str], cache: Path,
              embedder: E5OnnxEmbedder) -> np.ndarray:
    """Cached passage vectors, extended by embedding more until the budget is spent."""
    done = np.load(cache) if cache.exists() else np.zeros((0, 384), np.float16)
    stop = time.perf_counter() + 60 * minutes
    parts = [done]
    n = len(done)
    cpu = time.process_time()
    while n < len(texts) and time.perf_counter() < stop:
        batch = embedder.embed_documents(texts[n:n + 64]).astype(np.float16)
        parts.append(batch)
        n += len(batch)
        if len(parts) % 20 == 0:
            np.save(cache, np.concatenate(parts))
            print(f"\r  {n} passages embedded", end="", file=sys.stderr)
    matrix = np.concatenate(parts)
    np.save(cache, matrix)
    print(f"\n  {len(matrix) - len(done)} new in {time.process_time() - cpu:.0f} s CPU",
          file=sys.stderr)
    return matrix


def from_dbs(paths: list[str], model: str) -> np.ndarray:
    import sqlite3

    parts = [np.zeros((0, 384), np.float16)]
    for path in paths:
        with sqlite3.connect(path) as conn:
            blobs = conn.execute("SELECT vector FROM search_embeddings WHERE model = ?",
                                 (model,)).fetchall()
        parts += [np.frombuffer(b[0], dtype=np.float16).reshape(1, -1) for b in blobs]
    return np.concatenate(parts)


def fitted(real: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """``n`` unit vectors from a Gaussian with the mean and covariance of ``real``."""
    data = real.astype(np.float64)
    rng = np.random.default_rng(seed)
    out = rng.multivariate_normal(data.mean(axis=0), np.cov(data, rowvar=False), size=n,
                                  method="cholesky" if len(data) > data.shape[1] else "svd")
    return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float16)


def derived(real: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """The real vectors plus ``n - len(real)`` points between neighbouring real ones."""
    data = real.astype(np.float32)
    ann = UsearchAnn(data.shape[1], threads=os.cpu_count() or 1)
    ann.add(np.arange(len(data)), data)
    found = ann._index.search(data, 11, threads=os.cpu_count() or 1)  # batch search
    keys = np.asarray(found.keys, dtype=np.int64)[:, 1:]  # column 0 is the vector itself
    rng = np.random.default_rng(seed)
    base = rng.integers(0, len(data), size=max(0, n - len(data)))
    near = keys[base, rng.integers(0, keys.shape[1], size=len(base))]
    t = rng.random((len(base), 1), dtype=np.float32)
    out = data[base] + t * (data[near] - data[base])
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return np.concatenate([real, out.astype(np.float16)])


def recall(matrix: np.ndarray, probes: np.ndarray, efs: tuple[int, ...],
           build_threads: int = 1) -> list[dict[str, float]]:
    """Recall@10 and CPU ms per query of one HNSW build, for each search expansion ``ef``."""
    ann = UsearchAnn(matrix.shape[1], threads=build_threads)
    cpu = time.process_time()
    ann.add(np.arange(len(matrix)), matrix.astype(np.float32))
    build = time.process_time() - cpu
    exact = matrix.astype(np.float32)
    scores = list((exact @ probes.T).T)  # one matrix product: a million rows per query
    truth = [set(np.argpartition(-s, 9)[:10].tolist()) for s in scores]
    tenth = [-float(np.partition(-s, 9)[9]) for s in scores]
    out = []
    for ef in efs:
        ann.ef = ef
        found, tied, ms, refused = [], [], [], 0
        for q, top, s, kth in zip(probes, truth, scores, tenth, strict=True):
            started = time.process_time()
            hits = ann.search(q, 10)
            ms.append(1000 * (time.process_time() - started))
            got = {r for r, _ in hits}
            found.append(len(got & top) / 10)
            tied.append(sum(s[r] >= kth - 1e-6 for r in got) / 10)
            refused += bool(s.max() >= FLOOR and (not hits or hits[0][1] < FLOOR))
        out.append({"ef": ef, "recall": statistics.mean(found), "min": min(found),
                    "tied": statistics.mean(tied), "tied_min": min(tied), "refused": refused,
                    "build_cpu_s": build, "cpu_ms_p50": statistics.median(ms)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--words", default="40",
                        help="window lengths in words, comma-separated; each one's windows "
                             "are embedded in turn")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--cache", default="/tmp/papermind-ann-real.npy")
    parser.add_argument("--from-db", default="", help="comma-separated library files")
    parser.add_argument("--synthetic-sizes", default="20000,100000")
    parser.add_argument("--real-sizes", default="1000,5000,20000,100000,all",
                        help="prefixes of the real vectors to measure ('all': every one)")
    parser.add_argument("--derived-sizes", default="",
                        help="sizes of real-plus-derived sets (e.g. 500000,1000000)")
    parser.add_argument("--build-threads", type=int, default=1,
                        help="threads building each HNSW (its CPU seconds are reported)")
    parser.add_argument("--ef", default="128,256,512",
                        help="search expansions (library/ann.py: expansion_for)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "ann_real.md"))
    args = parser.parse_args()
    embedder = E5OnnxEmbedder(threads=2, cache_dir=Path(args.cache).parent / "models")
    sizes = [int(w) for w in args.words.split(",")]
    stop = time.perf_counter() + 60 * args.minutes
    texts: list[str] = []
    pools = []
    for words in sizes:
        pool = passages(words)
        texts += pool
        cache = pool_file(Path(args.cache), words, pooled=len(sizes) > 1)
        left = max(0.0, (stop - time.perf_counter()) / 60)
        pools.append(embed_for(left, pool, cache, embedder))
    passages_only = np.concatenate(pools)
    chunks = from_dbs([p for p in args.from_db.split(",") if p], embedder.name)
    matrix = np.concatenate([chunks, passages_only])
    asked = questions()[:args.queries]
    probes = np.stack([embedder.embed_query(q) for q in asked]).astype(np.float32)
    mean_cos = float(np.mean(matrix[:2000].astype(np.float32) @ matrix[:2000].T.astype(np.float32)))
    lines = ["# HNSW recall on real e5 embeddings (bench/ann_real.py)\n",
             f"Command: `.venv/bin/python {' '.join(sys.argv)}`\n",
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
             f"{os.getloadavg()[0]:.1f} (2 cores). {len(matrix):,} real e5 vectors "
             f"(`passage:`): {len(chunks):,} real 220-token chunks from --from-db and "
             f"{len(passages_only):,} passages of {args.words} words ({len(texts):,} "
             "available); "
             f"{len(probes)} real QASPER/PubMedQA questions as queries (`query:`). Mean "
             f"pairwise cosine of passages {mean_cos:.2f} (e5 vectors are far from random).\n",
             "| vectors | HNSW build CPU s | ef | HNSW CPU ms p50 | recall@10 mean | worst query | "
             f"recall@10, ties counted | worst query, ties counted | under {FLOOR} by the miss |",
             "|---|---|---|---|---|---|---|---|---|"]
    real_sizes = [len(matrix) if s == "all" else int(s) for s in args.real_sizes.split(",") if s]
    sets = [(f"{size:,} real", matrix[:size]) for size in
            sorted({min(len(matrix), s) for s in real_sizes})]
    sets += [(f"{int(n):,} synthetic (Gaussian fitted to the real ones)",
              fitted(matrix, int(n))) for n in args.synthetic_sizes.split(",") if n]
    sets += [(f"{int(n):,} real + derived (points between real neighbours)",
              derived(matrix, int(n))) for n in args.derived_sizes.split(",") if n]
    efs = tuple(int(e) for e in args.ef.split(","))
    for label, vectors in sets:
        for found in recall(vectors, probes, efs, args.build_threads):
            lines.append(f"| {label} | {found['build_cpu_s']:.1f} | {found['ef']:.0f} | "
                         f"{found['cpu_ms_p50']:.2f} | {found['recall']:.3f} | "
                         f"{found['min']:.1f} | {found['tied']:.3f} | {found['tied_min']:.1f} | "
                         f"{found['refused']} |")
            print(lines[-1], file=sys.stderr)
        Path(args.out).write_text("\n".join(lines) + "\n")
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
