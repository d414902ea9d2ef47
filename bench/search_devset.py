"""Search quality on the dev set (evals/search_devset.jsonl) with bootstrap intervals.

    PAPERMIND_SHARED_DATA=/work/shared/data PYTHONPATH=src .venv/bin/python bench/search_devset.py
        [--embedder e5] [--split report] [--fusions score,rrf,adaptive] [--cache DIR]
        [--out bench/results/search_devset.md]

Each query's BM25 and dense candidates come from ``search_devset_rankings`` (searched once
per embedder, kept in ``--cache``); hybrid is fused from them here by the library's own
``fuse_with`` (what ``SearchIndex`` does with the default options), once per fusion. R@5:
the gold among the first five distinct chunks. Intervals: 95% percentile bootstrap over
papers (2,000 resamples; a paper's questions are drawn together, since they share its text),
for each mode and for hybrid minus the better single side of that subset.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from search_devset_rankings import Case, collect  # noqa: E402

from papermind.library.fusion import FUSIONS, fuse_with  # noqa: E402

CACHE = Path("/tmp/papermind-bench")
RESAMPLES = 2000


def top5(case: Case, mode: str) -> bool:
    """Whether ``mode`` ('bm25', 'dense' or 'hybrid-<fusion>') has the gold in its top 5."""
    if mode in ("bm25", "dense"):
        return any(gold for _, _, gold in getattr(case, mode)[:5])
    gold = {row for row, _, g in [*case.bm25, *case.dense] if g}
    fused = fuse_with(mode.removeprefix("hybrid-"),  # type: ignore[arg-type]
                      [[(r, s) for r, s, _ in case.bm25], [(r, s) for r, s, _ in case.dense]],
                      [1.0, 1.0])
    return any(row in gold for row, _ in fused[:5])


def bootstrap(cases: Sequence[Case], stat: Callable[[Sequence[Case]], float],
              seed: int = 0) -> tuple[float, float]:
    """95% percentile interval of ``stat`` over resamples of the cases' papers."""
    papers: dict[str, list[Case]] = {}
    for case in cases:
        papers.setdefault(case.paper, []).append(case)
    groups = list(papers.values())
    rnd = random.Random(seed)
    values = sorted(stat([c for _ in groups for c in rnd.choice(groups)])
                    for _ in range(RESAMPLES))
    return values[int(0.025 * RESAMPLES)], values[int(0.975 * RESAMPLES) - 1]


def subsets(cases: Sequence[Case]) -> list[tuple[str, list[Case]]]:
    """The subsets reported: all within-paper, per source, per question length, across."""
    within = [c for c in cases if c.scope == "within"]
    rows = [("within, all", within)]
    rows += [(f"within, {s}", [c for c in within if c.source == s])
             for s in sorted({c.source for c in within})]
    rows += [("within, short (<= 3 keywords)", [c for c in within if c.keywords <= 3]),
             ("within, long (> 3 keywords)", [c for c in within if c.keywords > 3])]
    rows += [("across dev library", [c for c in cases if c.scope == "across"
                                     and c.source != "pubmedqa"]),
             ("across PubMedQA", [c for c in cases if c.source == "pubmedqa"])]
    return [(name, chosen) for name, chosen in rows if chosen]


def table(cases: Sequence[Case], modes: Sequence[str]) -> list[str]:
    hits = {c.id + c.scope: {m: top5(c, m) for m in modes} for c in cases}
    head = ["| subset | n (papers) | " + " | ".join(modes) +
            " | hybrid - best side (" + modes[2] + ") |",
            "|---|---|" + "---|" * (len(modes) + 1)]
    lines = []
    for name, chosen in subsets(cases):

        def rate(group: Sequence[Case], mode: str) -> float:
            return sum(hits[c.id + c.scope][mode] for c in group) / len(group)

        def margin(group: Sequence[Case], hybrid: str = modes[2]) -> float:
            return rate(group, hybrid) - max(rate(group, "bm25"), rate(group, "dense"))

        cells = []
        for mode in modes:
            low, high = bootstrap(chosen, lambda g, m=mode: rate(g, m))
            cells.append(f"{rate(chosen, mode):.3f} ({low:.2f}-{high:.2f})")
        low, high = bootstrap(chosen, margin)
        papers = len({c.paper for c in chosen})
        lines.append(f"| {name} | {len(chosen)} ({papers}) | " + " | ".join(cells) +
                     f" | {margin(chosen):+.3f} ({low:+.2f} to {high:+.2f}) |")
    return head + lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--split", default="report", choices=["choose", "report", "all"])
    parser.add_argument("--fusions", default=",".join(FUSIONS))
    parser.add_argument("--cache", default=str(CACHE))
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    cases = [c for c in collect(args.embedder, Path(args.cache))
             if args.split == "all" or c.split == args.split]
    modes = ["bm25", "dense", *(f"hybrid-{f}" for f in args.fusions.split(","))]
    text = "\n".join([f"### {args.embedder}, {args.split} split: R@5 (95% CI)", "",
                      *table(cases, modes), ""])
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
