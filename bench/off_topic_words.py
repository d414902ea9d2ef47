"""Off-topic questions that share one word with the library: "no good match" or a hit?

    .venv/bin/python bench/off_topic_words.py [--cache /tmp/papermind-bench] [--iclr]

Library-wide hybrid search (the product's path, relevance floor on) over the corpora of
bench/relevance_floor.py (QASPER's 8 papers, PubMedQA's 500 abstracts; with ``--iclr`` the 60
ICLR submissions), with and without the one-shared-word rule (library/match_support.py).
Off-topic: bench/off_topic_questions.txt, bench/off_topic_science.txt and
bench/off_topic_recipes.txt (everyday questions that share a word with a paper of the
corpora); refused = the search returned nothing. On-topic: the PubMedQA questions and the
QASPER lenient questions: refused, and gold found in the top 5 that the rule loses.
Writes bench/results/off_topic_words.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from relevance_floor import iclr, questions
from search_quality import CACHE, SearchOptions, build, pubmedqa, qasper, rank_of

import papermind.library.search as search_module
from papermind.library.search import SearchIndex

HERE = Path(__file__).resolve().parent
RULE = search_module.single_shared_word


def refused(index: SearchIndex, question: str) -> bool:
    return not index.search(question, mode="hybrid", k=5)


def found(index: SearchIndex, question: str, gold: Callable, by_paper: bool) -> bool:
    return (rank_of(index.search(question, mode="hybrid", k=10), gold, by_paper) or 99) <= 5


def measure(corpora: dict[str, SearchIndex], lists: dict[str, list[str]],
            on: dict[str, tuple[SearchIndex, list[tuple[str, Callable]], bool]]) -> list[str]:
    rows = []
    for name, qs in lists.items():
        for corpus, index in corpora.items():
            share = sum(refused(index, q) for q in qs) / len(qs)
            rows.append(f"| off-topic {name} over {corpus} ({len(qs)}) | refused | {share:.2f} |")
    for name, (index, items, by_paper) in on.items():
        gone = sum(refused(index, q) for q, _ in items) / len(items)
        hits = sum(found(index, q, g, by_paper) for q, g in items)
        rows.append(f"| on-topic {name} ({len(items)}) | refused; gold in top 5 | "
                    f"{gone:.3f}; {hits} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", default=str(CACHE))
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--iclr", action="store_true")
    args = parser.parse_args()
    args.chunk_tokens, args.no_enhance, args.no_priors = SearchOptions().chunk_tokens, False, True
    args.bm25_weight, args.dense_weight, args.rrf_k = 1.0, 1.0, SearchOptions().rrf_k
    args.priors, args.fusion, args.storage = False, SearchOptions().fusion, None
    papers, _ = qasper()
    pm_papers, sets = pubmedqa()
    corpora = {"qasper": build("qasper", papers, args), "pubmedqa": build("pubmedqa", pm_papers, args)}
    if args.iclr:
        corpora["iclr"] = build("iclr", iclr(), args)
    lists = {p.stem: questions(p) for p in (HERE / "off_topic_questions.txt",
                                           HERE / "off_topic_science.txt",
                                           HERE / "off_topic_recipes.txt")}
    _, lenient = qasper("lenient")
    on = {"PubMedQA questions": (corpora["pubmedqa"], [
              (q, lambda _t, p, g=pid: p == g) for q, pid in sets["question"]], True),
          "QASPER lenient": (corpora["qasper"], [(q, gold) for q, _pid, gold in lenient], False)}
    with_rule = measure(corpora, lists, on)
    search_module.single_shared_word = lambda *_: False  # type: ignore[assignment]
    without = measure(corpora, lists, on)
    search_module.single_shared_word = RULE
    lines = ["# Off-topic questions sharing one word: the one-shared-word rule", "",
             "`.venv/bin/python bench/off_topic_words.py" + (" --iclr" if args.iclr else "")
             + "` (library-wide hybrid search, relevance floor on)", "",
             "| set | measure | without the rule | with the rule |", "|---|---|---|---|"]
    for before, after in zip(without, with_rule, strict=True):
        name, measure_name, value = (c.strip() for c in before.strip("|").split("|"))
        lines.append(f"| {name} | {measure_name} | {value} | {after.strip('|').split('|')[2].strip()} |")
    out = HERE / "results" / "off_topic_words.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
