"""The BM25 and dense rankings of every dev-set question (and of PubMedQA), kept in a pickle
so that fusions are compared without searching or embedding again.

A ``Case`` holds one query's two candidate lists (50 each, as ``search.candidates``) with
each hit's score and whether it holds the gold; ``within`` cases search the question's
paper, ``across`` cases the whole dev library (32 papers) or the PubMedQA library (500
abstracts; the gold is any chunk of the question's abstract). The relevance floor is off.
"""

from __future__ import annotations

import pickle
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from search_devset_data import holds, load_devset, load_paper  # noqa: E402

from papermind.config import load_settings  # noqa: E402
from papermind.db import Database  # noqa: E402
from papermind.domain import SearchHit  # noqa: E402
from papermind.library.query import analyse  # noqa: E402
from papermind.library.search import SearchIndex, SearchOptions  # noqa: E402
from papermind.services.search import build_embedder  # noqa: E402

DEPTH = SearchOptions().candidates


@dataclass
class Case:
    """One query: its rankings (row, score, holds gold) and what it is."""

    id: str
    source: str
    paper: str
    question: str
    split: str
    scope: str  # "within" | "across"
    keywords: int
    bm25: list[tuple[int, float, bool]]
    dense: list[tuple[int, float, bool]]


def collect(embedder_name: str, cache: Path, pubmed: bool = True) -> list[Case]:
    """Every case for ``embedder_name`` (read from ``cache`` when collected before)."""
    path = cache / f"devset-cases-{embedder_name}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    cache.mkdir(parents=True, exist_ok=True)
    embedder = build_embedder(load_settings(search={"embedder": embedder_name}).search)
    rows = load_devset()
    papers = {name: load_paper(name) for name in sorted({r["paper"] for r in rows})}
    index = _index(cache / f"devset-{embedder_name}.sqlite3", embedder, list(papers.values()))
    cases = []
    for row in rows:
        paper_id = papers[row["paper"]].id
        for scope, ids in (("within", [paper_id]), ("across", None)):
            cases.append(_case(index, row, scope, ids,
                               lambda hit, r=row: holds(r["evidence"], hit.text)))
    if pubmed:
        cases += _pubmed(cache, embedder, embedder_name)
    path.write_bytes(pickle.dumps(cases))
    return cases


def _index(path: Path, embedder: object, papers: list) -> SearchIndex:
    index = SearchIndex(Database(path), embedder,  # type: ignore[arg-type]
                        options=SearchOptions(relevance_floor=0))
    started, cpu = time.perf_counter(), time.process_time()
    index.rebuild(papers)
    print(f"{path.name}: {len(papers)} papers, {index.store.count()} chunks, "
          f"{index.embedded} embedded in {time.process_time() - cpu:.0f} CPU s "
          f"({time.perf_counter() - started:.0f} s wall)", file=sys.stderr)
    return index


def _case(index: SearchIndex, row: dict, scope: str, paper_ids: list[str] | None,
          is_gold: Callable[[SearchHit], bool]) -> Case:
    ranked = {}
    for mode in ("bm25", "dense"):
        hits = index.search(row["question"], paper_ids=paper_ids, mode=mode,  # type: ignore[arg-type]
                            k=DEPTH)
        ranked[mode] = [(_row(hit), hit.score, is_gold(hit)) for hit in hits]
    return Case(id=row["id"], source=row["source"], paper=row["paper"],
                question=row["question"], split=row["split"], scope=scope,
                keywords=len(analyse(row["question"]).keywords), bm25=ranked["bm25"],
                dense=ranked["dense"])


_ROWS: dict[str, int] = {}


def _row(hit: SearchHit) -> int:
    """A stable integer per chunk (fusion breaks ties by it, as by the store's row)."""
    return _ROWS.setdefault(f"{hit.paper_id}/{hit.chunk_id}", len(_ROWS))


def _pubmed(cache: Path, embedder: object, name: str) -> list[Case]:
    import hashlib

    from search_quality import pubmedqa

    papers, sets = pubmedqa()
    index = _index(cache / f"devset-pubmed-{name}.sqlite3", embedder, papers)
    cases = []
    for question, paper_id in sets["question"]:
        split = ("choose", "report")[hashlib.sha256(paper_id.encode()).digest()[0] % 2]
        row = {"id": paper_id[:12], "source": "pubmedqa", "paper": paper_id,
               "question": question, "split": split}
        cases.append(_case(index, row, "across", None,
                           lambda hit, p=paper_id: hit.paper_id == p))
    return cases
