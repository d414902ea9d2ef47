"""Where to put the relevance floor: best dense similarity of real questions vs off-topic ones.

    .venv/bin/python bench/relevance_floor.py [--cache /tmp/papermind-bench]

Uses the indexes that bench/search_quality.py builds (run it first with the same --cache, so
every embedding is cached). On-topic: QASPER questions within their paper, PubMedQA questions
over the 500 abstracts (the floor applies to library-wide searches only, so the QASPER
within-paper rows show what a library-wide floor would cost there). Off-topic: the 30 questions in bench/off_topic_questions.txt (no
paper answers them), over each corpus. Reports the best hit's cosine (dense mode), and for
candidate floors the share of off-topic queries refused and of on-topic ones kept / still
found in the top 5.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_quality import CACHE, SearchOptions, build, pubmedqa, qasper, rank_of

OFF_TOPIC = [q for q in (Path(__file__).with_name("off_topic_questions.txt").read_text()
                         .splitlines()) if q.strip()]


def best(index, query: str, paper_ids=None) -> float:
    hits = index.search(query, mode="dense", k=1, paper_ids=paper_ids)
    return hits[0].score if hits else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", default=str(CACHE))
    parser.add_argument("--embedder", default="e5")
    args = parser.parse_args()
    args.chunk_tokens, args.no_enhance, args.no_priors = SearchOptions().chunk_tokens, False, True
    args.bm25_weight, args.dense_weight, args.rrf_k = 1.0, 1.0, SearchOptions().rrf_k
    args.priors, args.fusion = False, SearchOptions().fusion
    papers, queries = qasper()
    q_index = build("qasper", papers, args)
    pm_papers, sets = pubmedqa()
    pm_index = build("pubmedqa", pm_papers, args)
    for index in (q_index, pm_index):  # measure raw similarities: the floor itself off
        index.options = dataclasses.replace(index.options, relevance_floor=0.0)
    on: list[tuple[float, bool]] = []
    for question, pid, gold in queries:  # within the paper, as search_quality does
        hits = q_index.search(question, mode="hybrid", k=10, paper_ids=[pid])
        on.append((best(q_index, question, [pid]), (rank_of(hits, gold, False) or 99) <= 5))
    for question, pid in sets["question"][:200]:
        hits = pm_index.search(question, mode="hybrid", k=30)
        on.append((best(pm_index, question), (rank_of(hits, lambda _t, p, g=pid: p == g, True)
                                              or 99) <= 5))
    off = [best(q_index, q) for q in OFF_TOPIC] + [best(pm_index, q) for q in OFF_TOPIC]
    print(f"on-topic best cosine: median {statistics.median(s for s, _ in on):.3f}, "
          f"min {min(s for s, _ in on):.3f} ({len(on)} queries)")
    print(f"off-topic best cosine: median {statistics.median(off):.3f}, max {max(off):.3f} "
          f"({len(off)} = 30 questions x 2 corpora)")
    print("| floor | off-topic refused | on-topic kept | on-topic found@5 lost |")
    print("|---|---|---|---|")
    for floor in (0.78, 0.79, 0.80, 0.81, 0.82, 0.83, 0.84):
        refused = sum(s < floor for s in off) / len(off)
        kept = sum(s >= floor for s, _ in on) / len(on)
        lost = sum(found and s < floor for s, found in on) / len(on)
        qasper_lost = sum(found and s < floor for s, found in on[:len(queries)])
        print(f"| {floor:.2f} | {refused:.2f} | {kept:.3f} | {lost:.3f} "
              f"(QASPER: {qasper_lost} of {len(queries)}) |")


if __name__ == "__main__":
    main()
