"""Static document vectors distilled from the packaged e5 (model2vec's idea): speed and quality.

    PAPERMIND_SHARED_DATA=../shared/data .venv/bin/python bench/static_embeddings.py
        [--cache /tmp/papermind-bench]

Issue 17 asks for 10x the embedding throughput at equal retrieval quality and names static
embeddings as one way. Here each token of the corpora gets one vector: e5 run on that token
alone (<s> token </s>, mean pooled), computed from the packaged weights, nothing downloaded.
A chunk's vector is the (uniform or idf-weighted) mean of its tokens' vectors; the query is
embedded either by full e5 (cheap documents, the model for queries) or statically too.
Dense R@5 is compared with full e5 on the same chunks: QASPER within-paper (strict and lenient
gold, as bench/search_quality.py) and PubMedQA library-wide (questions; no relevance floor).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_quality import CACHE, SearchOptions, build, pubmedqa, qasper

from papermind.library.e5_runtime import E5Runtime, Window


class Corpus:
    """One built index's chunks: paper ids, texts, embedded bodies and e5 vectors."""

    def __init__(self, index: object) -> None:
        rows = index.db.query(  # type: ignore[attr-defined]
            "SELECT c.paper_id, c.section, c.text, e.vector FROM search_chunks c JOIN "
            "search_embeddings e ON e.content_hash = c.content_hash ORDER BY c.id")
        self.papers = [r[0] for r in rows]
        self.texts = [r[2] for r in rows]
        self.bodies = [" > ".join(json.loads(r[1])) + "\n" + r[2] if json.loads(r[1]) else r[2]
                       for r in rows]
        e5 = np.stack([np.frombuffer(r[3], dtype=np.float16).astype(np.float32) for r in rows])
        self.e5 = e5 / np.linalg.norm(e5, axis=1, keepdims=True)


class Static:
    """Token vectors from e5, and texts embedded as their weighted mean."""

    def __init__(self, runtime: E5Runtime, corpora: Sequence[Corpus]) -> None:
        self.runtime = runtime
        self.ids = {b: ids for c in corpora for b, ids in zip(
            c.bodies, runtime.tokenizer.encode(["passage: " + b for b in c.bodies]), strict=True)}
        self.df = Counter(t for ids in self.ids.values() for t in set(ids))
        self.n = len(self.ids)
        self.vectors: dict[int, np.ndarray] = {}
        started = time.process_time()
        self._add(sorted(self.df))
        self.build_cpu = time.process_time() - started

    def _add(self, tokens: Sequence[int], batch: int = 256) -> None:
        for start in range(0, len(tokens), batch):
            part = tokens[start:start + batch]
            pooled = self.runtime._run([Window(0, [t]) for t in part])
            for t, v in zip(part, pooled, strict=True):
                self.vectors[t] = v / np.linalg.norm(v)

    def weight(self, kind: str) -> Callable[[int], float]:
        if kind == "uniform":
            return lambda _t: 1.0
        return lambda t: math.log((self.n + 1) / (self.df.get(t, 0) + 0.5))

    def embed(self, ids: Sequence[int], kind: str) -> np.ndarray:
        self._add([t for t in dict.fromkeys(ids) if t not in self.vectors])
        weight = self.weight(kind)
        v = sum(weight(t) * self.vectors[t] for t in ids)
        return np.asarray(v / np.linalg.norm(v))

    def documents(self, corpus: Corpus, kind: str) -> np.ndarray:
        return np.stack([self.embed(self.ids[b], kind) for b in corpus.bodies])

    def query(self, text: str, kind: str) -> np.ndarray:
        return self.embed(self.runtime.tokenizer.encode(["query: " + text])[0], kind)


def qasper_r5(corpus: Corpus, docs: np.ndarray, embed: Callable[[str], np.ndarray],
              kind: str) -> float:
    _, queries = qasper(kind)
    found = 0
    for question, paper_id, gold in queries:
        rows = [i for i, p in enumerate(corpus.papers) if p == paper_id]
        top = np.argsort(-(docs[rows] @ embed(question)))[:5]
        found += any(gold(corpus.texts[rows[j]], paper_id) for j in top)
    return found / len(queries)


def pubmed_r5(corpus: Corpus, docs: np.ndarray, embed: Callable[[str], np.ndarray]) -> float:
    _, sets = pubmedqa()
    found = 0
    for question, gold in sets["question"]:
        papers: list[str] = []
        for j in np.argsort(-(docs @ embed(question))):
            papers += [] if corpus.papers[j] in papers else [corpus.papers[j]]
            if len(papers) == 5:
                break
        found += gold in papers
    return found / len(sets["question"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", default=str(CACHE))
    args = parser.parse_args()
    args.chunk_tokens, args.no_enhance, args.no_priors = SearchOptions().chunk_tokens, False, True
    args.bm25_weight, args.dense_weight, args.rrf_k = 1.0, 1.0, SearchOptions().rrf_k
    args.priors, args.fusion, args.storage, args.embedder = False, SearchOptions().fusion, None, "e5"
    qasper_papers, _ = qasper()
    pubmed_papers, _ = pubmedqa()
    q = Corpus(build("qasper", qasper_papers, args))
    p = Corpus(build("pubmedqa", pubmed_papers, args))
    runtime = E5Runtime()
    static = Static(runtime, [q, p])
    print(f"{len(static.vectors)} token vectors in {static.build_cpu:.1f} CPU s")

    def full(text: str) -> np.ndarray:
        return runtime.embed([text], "query: ")[0]

    chunks = len(q.bodies) + len(p.bodies)
    rows = [("e5 (today)", q.e5, p.e5, full, "-")]
    for kind in ("uniform", "idf"):
        started = time.process_time()
        docs = static.documents(q, kind), static.documents(p, kind)
        cost = f"{1000 * (time.process_time() - started) / chunks:.2f}"
        rows.append((f"static {kind}, e5 query", *docs, full, cost))
        rows.append((f"static {kind}, static query", *docs,
                     lambda text, k=kind: static.query(text, k), cost))
    print("\n| documents, queries | CPU ms per chunk | QASPER strict R@5 | QASPER lenient R@5 |"
          " PubMedQA questions R@5 |\n|---|---|---|---|---|")
    for label, dq, dp, embed, cost in rows:
        print(f"| {label} | {cost} | {qasper_r5(q, dq, embed, 'strict'):.3f} | "
              f"{qasper_r5(q, dq, embed, 'lenient'):.3f} | {pubmed_r5(p, dp, embed):.3f} |",
              flush=True)


if __name__ == "__main__":
    main()
