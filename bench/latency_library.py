"""The synthetic-but-realistic libraries that bench/search_latency.py searches.

Chunks are 3-7 sentences drawn at random from real papers in ../shared/data (ICLR, QASPER,
PubMedQA texts), grouped 50 to a synthetic paper, written through the real ChunkStore (chunk
rows + FTS5) and EmbeddingCache (float16 blobs), or in bulk with the same tables for 1M
chunks, or by copying a smaller library. Vectors are synthetic (384 dims): random, or
clustered around 2,000 centres (embedding-like, as bench/ann_scale.py) by ``revector``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.db import Database  # noqa: E402
from papermind.domain import Anchor, Chunk  # noqa: E402
from papermind.library.embedders import normalise  # noqa: E402
from papermind.library.search import SearchIndex  # noqa: E402

DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))
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


def fresh(work: Path) -> tuple[Database, SearchIndex]:
    """An empty library in ``work`` (deleted first), with random document vectors."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db = Database(work / "library.sqlite3")
    return db, SearchIndex(db, RandomEmbedder())  # type: ignore[arg-type]


def facts(work: Path, build_s: float) -> dict:
    """Build seconds and SQLite disk (the vector index loads later, after ``revector``)."""
    disk = sum(f.stat().st_size for f in work.iterdir() if f.is_file())
    return {"build_s": build_s, "disk_mb": disk / 2**20, "load_s": float("nan")}


def build(work: Path, size: int, pool: list[str],
          rng: random.Random) -> tuple[SearchIndex, dict]:
    db, index = fresh(work)
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
    return index, facts(work, time.perf_counter() - started)


def bulk_build(work: Path, size: int, pool: list[str],
               rng: random.Random) -> tuple[SearchIndex, dict]:
    """The same tables filled with executemany in large transactions (for 1M chunks).

    Writing paper by paper through ChunkStore.replace_paper runs at the rate the 100k section
    reports; at 1M that takes hours on this shared 2-core machine, so the 1M index is loaded in
    bulk. Searching then uses the real code path.
    """
    db, index = fresh(work)
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
    return index, facts(work, time.perf_counter() - started)


def replicate(work: Path, source: Path, factor: int) -> tuple[SearchIndex, dict]:
    """``factor`` copies of the index in ``source`` (new ids, papers and hashes), in SQL.

    Faster than generating text in Python on a busy 2-core machine: 1M chunks = 10 copies of
    the 100k set, so posting lists are 10x longer, as in a 10x larger library.
    """
    db, index = fresh(work)
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
    return index, facts(work, time.perf_counter() - started)


def reopen(work: Path) -> tuple[SearchIndex, dict]:
    """The index a previous run left in ``work`` (build time not measured again)."""
    index = SearchIndex(Database(work / "library.sqlite3"), RandomEmbedder())  # type: ignore[arg-type]
    return index, facts(work, float("nan"))


def prepare(args: argparse.Namespace, size: int, pool: list[str],
            rng: random.Random) -> tuple[SearchIndex, dict, str]:
    bulk = size > args.bulk_above
    work = Path(args.work)
    if args.reuse and (work / "library.sqlite3").exists():
        index, found = reopen(work)
    elif args.replicate:
        source = Path(args.replicate)
        copies = size // int(Database(source).query("SELECT COUNT(*) FROM search_chunks")[0][0])
        index, found = replicate(work, source, copies)
    else:
        index, found = (bulk_build if bulk else build)(work, size, pool, rng)
    how = "copied (see replicate) " if args.replicate and not args.reuse else \
        "reused " if args.reuse else "bulk " if bulk else ""
    return index, found, how
