"""What the LLM reranker costs per query: QASPER questions, within their paper, against the
local mock OpenAI-compatible server (no real model here: the scores are a toy word overlap,
so this measures the call's size and count, never the ranking's quality).

    .venv/bin/python bench/rerank_tokens.py [--questions 40] [--embedder hashing]
        [--top 20] [--passage-chars 1200] [--k 8] [--gold strict|widened|lenient]
        [--out bench/results/rerank_tokens.md]

Each question is searched once (fusion, then one rerank call over the top ``--top``
candidates, ``--k`` kept, as cited QA's retrieval), then again (the response cache answers).
Tokens in are the mock's estimate (prompt characters / 4, messages only: a real provider
also counts the ~150-token tool schema) and, as a check, ``count_tokens`` (words and
punctuation). Also reported: how often the gold paragraph is among the candidates the
reranker sees (the most reranking can do) and where fusion alone ranks it.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from search_quality import DATA, qasper, rank_of  # noqa: E402

from papermind.config import EndpointSettings, LLMSettings, load_settings  # noqa: E402
from papermind.db import Database  # noqa: E402
from papermind.library.chunking import count_tokens  # noqa: E402
from papermind.library.search import SearchIndex  # noqa: E402
from papermind.llm import build_gateway  # noqa: E402
from papermind.llm.testing import MockOpenAIServer  # noqa: E402
from papermind.services.rerank import LLMReranker  # noqa: E402
from papermind.services.search import SearchService, build_embedder  # noqa: E402

_FENCE = re.compile(r"<<<PASSAGES_BEGIN \w+>>>\n(.*?)\n<<<PASSAGES_END \w+>>>", re.S)
_PASSAGE = re.compile(r"^\[(\d+)\] [^\n]*\n(.*?)(?=^\[\d+\] |\Z)", re.M | re.S)
_WORD = re.compile(r"[a-z0-9]+")


def prompt_text(request: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in request.get("messages", []))


def passages(text: str) -> list[tuple[str, str]]:
    """(number, text) of each passage fenced in a rerank prompt."""
    fenced = _FENCE.search(text)
    return _PASSAGE.findall(fenced.group(1)) if fenced else []


def overlap_scores(request: dict[str, Any]) -> dict[str, Any]:
    """A toy judge: each passage scored by the query words it holds (0-10)."""
    text = prompt_text(request)
    query = set(_WORD.findall(text.split("Query:", 1)[-1].split("\n", 1)[0].lower()))
    scores = []
    for number, body in passages(text):
        shared = len(query & set(_WORD.findall(body.lower())))
        scores.append({"number": int(number), "score": min(10, shared)})
    return {"scores": scores}


class SameIds:
    """Paper ids as given (the bench passes full ids)."""

    def resolve(self, paper_id: str) -> str:
        return paper_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--passage-chars", type=int, default=1200)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--gold", default="widened", choices=("strict", "widened", "lenient"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" /
                        "rerank_tokens.md")
    args = parser.parse_args()
    if not (DATA / "qasper_subset").is_dir():
        sys.exit(f"no QASPER subset under {DATA}")
    papers, queries = qasper(args.gold)
    queries = queries[:args.questions]
    folder = Path(tempfile.mkdtemp(prefix="papermind-rerank-"))
    db = Database(folder / "lib.sqlite3")
    index = SearchIndex(db, build_embedder(load_settings(search={"embedder": args.embedder})
                                           .search))
    index.rebuild(papers)
    with MockOpenAIServer(responder=overlap_scores) as mock:
        endpoint = EndpointSettings(base_url=mock.base_url, model="mock-model", api_key="k",
                                    max_retries=0)
        gateway = build_gateway(LLMSettings(endpoints={"default": endpoint}), db=db)
        reranker = LLMReranker(gateway, top=args.top, passage_chars=args.passage_chars)
        search = SearchService(index, SameIds(), reranker=reranker)  # type: ignore[arg-type]
        rows, started = [], time.perf_counter()
        for question, paper_id, is_gold in queries:
            before = mock.request_count
            found = search.search_reranked(question, paper_ids=[paper_id], k=args.k)
            request = mock.requests[-1] if mock.request_count > before else {}
            fusion = index.search(question, paper_ids=[paper_id], k=args.top)
            rows.append({"calls": mock.request_count - before, "in": found.tokens_in,
                         "out": found.tokens_out, "words": count_tokens(prompt_text(request)),
                         "passages": len(passages(prompt_text(request))),
                         "gold_seen": rank_of(fusion, is_gold, by_paper=False) is not None,
                         "fusion_rank": rank_of(fusion, is_gold, by_paper=False)})
        first_pass = time.perf_counter() - started
        calls = mock.request_count
        cached = sum(search.search_reranked(q, paper_ids=[p], k=args.k).cached
                     for q, p, _ in queries)
        repeat_calls = mock.request_count - calls
    write(args, rows, len(papers), first_pass, cached, repeat_calls)


def write(args: argparse.Namespace, rows: list[dict[str, Any]], papers: int,
          seconds: float, cached: int, repeat_calls: int) -> None:
    n = len(rows)
    tokens_in = [r["in"] for r in rows]
    tokens_out = [r["out"] for r in rows]
    ranks = [r["fusion_rank"] for r in rows]
    lines = [
        "# LLM reranker: tokens per query (QASPER, mock server)",
        "",
        f"Command: `.venv/bin/python bench/rerank_tokens.py --questions {args.questions} "
        f"--embedder {args.embedder} --top {args.top} --passage-chars {args.passage_chars} "
        f"--k {args.k} --gold {args.gold}`",
        "",
        f"{n} QASPER questions over {papers} papers, searched within their paper; the mock "
        "server's scores are a toy word overlap, NOT a model: these are the call's size "
        "and count, not ranking quality. No real model was run.",
        "",
        f"- rerank calls per query: {sorted({r['calls'] for r in rows})} (first pass); "
        f"second pass: {repeat_calls} calls, {cached}/{n} answered from the cache",
        f"- passages per prompt: max {max(r['passages'] for r in rows)} "
        f"(bound {args.top}), median {statistics.median(r['passages'] for r in rows)}",
        f"- tokens in per query (mock estimate, chars/4): median "
        f"{statistics.median(tokens_in):.0f}, mean {statistics.mean(tokens_in):.0f}, "
        f"max {max(tokens_in)}; words+punctuation: median "
        f"{statistics.median(r['words'] for r in rows):.0f}",
        f"- tokens out per query: median {statistics.median(tokens_out):.0f}, "
        f"max {max(tokens_out)} (role cap 768)",
        f"- gold paragraph among the reranker's candidates (fusion top {args.top}): "
        f"{sum(r['gold_seen'] for r in rows)}/{n}; fusion alone ranks it first in "
        f"{sum(r == 1 for r in ranks)}/{n}, in its top {args.k} in "
        f"{sum(r is not None and r <= args.k for r in ranks)}/{n}",
        f"- wall time, first pass: {seconds:.1f} s for {n} queries (fusion, the mock call, "
        "the cache write; machine shared with other work)",
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
