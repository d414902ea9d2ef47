"""Write tests/library/data/search_check.json: the small fixed retrieval check that CI runs
(tests/library/test_search_check.py).

    PAPERMIND_SHARED_DATA=/work/shared/data PYTHONPATH=src .venv/bin/python bench/search_ci_subset.py

Every third question of evals/search_devset.jsonl from QASPER (CC-BY-4.0) and the ICLR and
LaTeX papers (Apache-2.0, AI-Scientist); not the Chinese ones (GPL/LPPL templates). Each
paper keeps only the passages (chunks of the default budget) that BM25 or dense ranks in its
top ``POOL`` for one of its questions, and the gold chunks: a pool of hard distractors, small
enough to embed in seconds. The check's floor is set a little under what it measures here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from search_devset_data import holds, load_devset, load_paper  # noqa: E402

from papermind.config import load_settings  # noqa: E402
from papermind.db import Database  # noqa: E402
from papermind.library.search import SearchIndex, SearchOptions  # noqa: E402
from papermind.services.search import build_embedder  # noqa: E402

OUT = ROOT / "tests" / "library" / "data" / "search_check.json"
POOL = 4
LICENCES = {"qasper": "CC-BY-4.0 (QASPER, via LEval)",
            "iclr": "Apache-2.0 (SakanaAI/AI-Scientist, review_iclr_bench)",
            "latex": "Apache-2.0 (SakanaAI/AI-Scientist, example_papers)"}


def main() -> None:
    rows = [r for r in load_devset() if r["source"] in LICENCES][::3]
    papers = {name: load_paper(name) for name in sorted({r["paper"] for r in rows})}
    cache = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/papermind-bench")
    cache.mkdir(parents=True, exist_ok=True)
    index = SearchIndex(Database(cache / "search-ci.sqlite3"),
                        build_embedder(load_settings().search), options=SearchOptions())
    index.rebuild(papers.values())
    kept: dict[str, dict[str, tuple[tuple[int, int], str]]] = {name: {} for name in papers}
    for row in rows:
        ids = [papers[row["paper"]].id]
        hits = [*index.search(row["question"], paper_ids=ids, mode="bm25", k=POOL),
                *index.search(row["question"], paper_ids=ids, mode="dense", k=POOL),
                *(h for h in index.search(row["question"], paper_ids=ids, mode="dense", k=500)
                  if holds(row["evidence"], h.text))]
        for hit in hits:
            place = (hit.anchor.page, hit.anchor.line_start) if hit.anchor else (0, 0)
            kept[row["paper"]][hit.chunk_id] = (place, hit.text)
    data = {
        "about": "Fixed retrieval check (bench/search_ci_subset.py); questions and evidence from "
                 "evals/search_devset.jsonl; passages are excerpts of the papers named.",
        "licences": LICENCES,
        "papers": {name: [text for _, text in sorted(chunks.values())]
                   for name, chunks in kept.items()},
        "questions": [{"paper": r["paper"], "source": r["source"], "question": r["question"],
                       "evidence": r["evidence"]} for r in rows]}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(rows)} questions, {len(papers)} papers, "
          f"{sum(len(p) for p in data['papers'].values())} passages, "
          f"{OUT.stat().st_size / 1024:.0f} KB -> {OUT}")


if __name__ == "__main__":
    main()
