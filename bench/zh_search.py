"""Within-paper retrieval on the Chinese papers: BM25 tokens by jieba vs bigrams vs none.

The set (bench/zh_retrieval.jsonl, 39 items, written for this bench from the five papers
in ../shared/data/pdfs/zh): a Chinese question, its paper, and a verbatim snippet of the
paragraph that answers it (questions paraphrase; they avoid the snippet's wording where
Chinese allows). A hit is a chunk holding the snippet (whitespace and full-width forms
folded), or 60% of it as one stretch when the chunker split the paragraph. Every paper is
indexed once per mode in one library file (embeddings cached, so only FTS5 changes).

Run: PYTHONPATH=src .venv/bin/python bench/zh_search.py   (writes bench/results/zh_search.md)
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.shared_papers import pdfs_dir  # noqa: E402

from papermind.config import load_settings  # noqa: E402
from papermind.db import Database  # noqa: E402
from papermind.ingest import parse_file  # noqa: E402
from papermind.library.search import SearchIndex, SearchOptions  # noqa: E402
from papermind.library.segmenter import MODES  # noqa: E402
from papermind.services.search import build_embedder  # noqa: E402

ITEMS = ROOT / "bench" / "zh_retrieval.jsonl"


def fold(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def hit(snippet: str, chunk: str) -> bool:
    a, b = fold(snippet), fold(chunk)
    if a in b:
        return True
    match = difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match()
    return match.size >= 0.6 * len(a)


def main() -> int:
    root = pdfs_dir()
    if root is None or not (root / "zh").is_dir():
        print("shared data (pdfs/zh) not found")
        return 1
    items = [json.loads(line) for line in ITEMS.read_text(encoding="utf-8").splitlines() if line]
    papers = {stem: parse_file(root / "zh" / f"{stem}.pdf") for stem in {i["paper"] for i in items}}
    missing = [i["answer"] for i in items
               if not any(hit(i["answer"], p.text) for p in papers[i["paper"]].paragraphs)]
    embedder = build_embedder(load_settings().search)
    rows, started, cpu = [], time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(Path(tmp) / "zh.sqlite3")
        for mode in MODES:
            index = SearchIndex(db, embedder, options=SearchOptions(cjk_segmenter=mode))
            index.rebuild(papers.values())
            for search_mode in ("bm25", "dense", "hybrid"):
                if search_mode == "dense" and mode != MODES[0]:
                    continue  # the same for every tokenisation
                ranks = [next((r for r, h in enumerate(index.search(
                    i["question"], paper_ids=[papers[i["paper"]].id], mode=search_mode, k=10), 1)
                    if hit(i["answer"], h.text)), None) for i in items]
                label = "dense (any)" if search_mode == "dense" else f"{search_mode} / {mode}"
                r1, r5 = (sum(r is not None and r <= n for r in ranks) / len(items) for n in (1, 5))
                mrr = sum(1 / r for r in ranks if r) / len(items)
                rows.append(f"| {label} | {r1:.3f} | {r5:.3f} | {mrr:.3f} |")
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    text = "\n".join([
        "# Chinese within-paper retrieval", "",
        "`PYTHONPATH=src .venv/bin/python bench/zh_search.py` (e5 embedder, chunk budget 220; "
        f"{len(items)} questions over {len(papers)} papers; {wall:.0f} s wall, {cpu:.0f} s CPU "
        "incl. indexing)", "", "| search / CJK tokens | R@1 | R@5 | MRR@10 |", "|---|---|---|---|", *rows, "",
        f"Snippets not found in their paper's paragraphs: {missing or 'none'}", ""])
    (ROOT / "bench" / "results" / "zh_search.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
