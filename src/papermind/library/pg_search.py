"""Chunks and BM25 on PostgreSQL: each chunk's terms (``lexical_terms``: the terms FTS5's porter
tokenizer makes on the SQLite backend) kept as a GIN-indexed JSONB map term -> frequency,
scored as BM25, so both backends score the same terms with the same formula.

The same search tables as the SQLite backend (``search_chunks``, ``search_embeddings``,
``search_changes``), plus what BM25 needs that FTS5 keeps for itself: per-lexeme document
frequencies and per-group chunk and token counts, updated in the transaction that writes
the chunks. A map rather than the ``tsvector`` itself: reading a query lexeme's frequency is
one key lookup, where a ``tsvector`` must be unnested whole (measured 10x slower). Content and bibliography chunks are separate groups, as FTS5 has two tables.
Scores are FTS5's BM25 (k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)), floored),
summed over the query's words as FTS5 sums over its phrases (two words with one stem count
twice), over the chunks that match any of them (``ts_rank_cd`` has no idf and ranked worse;
``to_tsvector('english')`` lexemes drop stopwords and split words unlike FTS5 and cost a
QASPER question in thirteen; see bench/search_quality.py --storage). Library-wide, the
candidates come from impact-ordered postings (``pg_postings``, kept in the same transaction),
so a query's cost is bounded by a postings budget rather than by every matching chunk.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from papermind.db import SqlDatabase
from papermind.domain import Chunk
from papermind.library import pg_postings
from papermind.library.chunk_store import (
    ALL_PAPERS,
    COVERAGE_MIGRATION,
    FILTER_MIGRATION,
    WORD,
    ChunkStore,
)
from papermind.library.fulltext import NO_FILTERS, FullTextIndex, SearchFilters
from papermind.library.lexical_terms import lexical_terms
from papermind.library.pg_postings import K1, B

COMPONENT = "search"
PG_MIGRATIONS = [
    """
    CREATE TABLE search_chunks (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        chunk_id     TEXT NOT NULL UNIQUE,
        paper_id     TEXT NOT NULL,
        kind         TEXT NOT NULL,
        section_kind TEXT NOT NULL,
        section      TEXT NOT NULL,
        year         INTEGER,
        text         TEXT NOT NULL,
        anchors      TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        body_tf      JSONB NOT NULL,
        body_len     INTEGER NOT NULL,
        grp          TEXT GENERATED ALWAYS AS
                     (CASE WHEN kind = 'reference' THEN 'reference' ELSE 'content' END) STORED
    );
    CREATE INDEX search_chunks_paper ON search_chunks(paper_id);
    CREATE INDEX search_chunks_hash ON search_chunks(content_hash);
    CREATE INDEX search_chunks_terms ON search_chunks USING gin(body_tf);
    CREATE TABLE search_embeddings (
        model        TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        dim          INTEGER NOT NULL,
        vector       VECTOR NOT NULL,
        PRIMARY KEY (model, content_hash)
    );
    CREATE TABLE search_terms (
        term TEXT PRIMARY KEY,
        df   BIGINT NOT NULL
    );
    CREATE TABLE search_lexemes (
        grp    TEXT NOT NULL,
        lexeme TEXT NOT NULL,
        df     BIGINT NOT NULL,
        PRIMARY KEY (grp, lexeme)
    );
    CREATE TABLE search_stats (
        grp    TEXT PRIMARY KEY,
        chunks BIGINT NOT NULL,
        tokens BIGINT NOT NULL
    );
    INSERT INTO search_stats VALUES ('content', 0, 0), ('reference', 0, 0);
    CREATE TABLE search_changes (
        generation BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        paper_id   TEXT NOT NULL
    );
    """,
    # lexemes were to_tsvector('english', body): the chunk rows go (papers then show "not
    # indexed"; `papermind reindex` rebuilds them with the FTS5 terms), embeddings stay
    f"""
    DELETE FROM search_chunks;
    DELETE FROM search_lexemes;
    DELETE FROM search_terms;
    UPDATE search_stats SET chunks = 0, tokens = 0;
    INSERT INTO search_changes(paper_id) VALUES ('{ALL_PAPERS}');
    """,
    pg_postings.MIGRATION,
    COVERAGE_MIGRATION,  # dense coverage per paper (library.coverage), as on SQLite
    FILTER_MIGRATION,  # narrow section and year filters, as on SQLite
]
SCAN_ROWS = 10_000
"""A filter passing at most this many chunks gets exact BM25 over them (the scan): at 100k
chunks, one year's 4,000 took 21.9 ms p50 against 83.9 for checking the ~18,000 candidates
(bench/results/pg_scale.md)."""
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_GROUPS = {"content": ("content", "equation", "caption"), "reference": ("reference",)}


class PgChunkStore(ChunkStore):
    """Chunk rows with their ``tsvector``; BM25 statistics kept in step."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT, PG_MIGRATIONS)

    def replace_paper(self, paper_id: str, chunks: Sequence[Chunk],
                      bodies: Sequence[str]) -> None:
        with self.db.transaction() as conn:
            self._delete(paper_id)
            self._count_terms(bodies, +1)
            conn.executemany(
                "INSERT INTO search_chunks(chunk_id, paper_id, kind, section_kind, section,"
                " year, text, anchors, content_hash, body_tf, body_len)"
                " VALUES (?,?,?,?,?,?,?,?,?,?::jsonb,?)",
                [(c.id, c.paper_id, c.kind, c.section_kind, _json(c.section_path), c.year,
                  c.text, _json([a.model_dump(exclude_defaults=True) for a in c.anchors]),
                  c.content_hash, *frequencies)
                 for c, frequencies in zip(chunks, term_frequencies(bodies), strict=True)])
            self._count_lexemes(conn, paper_id, +1)
            pg_postings.add_paper(conn, paper_id)
            conn.execute("INSERT INTO search_changes(paper_id) VALUES (?)", (paper_id,))

    def remove_paper(self, paper_id: str) -> None:
        with self.db.transaction() as conn:
            self._delete(paper_id)
            conn.execute("INSERT INTO search_changes(paper_id) VALUES (?)", (paper_id,))

    def clear(self) -> None:
        with self.db.transaction() as conn:
            for table in ("search_postings", "search_chunks", "search_terms", "search_lexemes"):
                conn.execute(f"DELETE FROM {table}")
            conn.execute("UPDATE search_stats SET chunks = 0, tokens = 0")
            conn.execute("INSERT INTO search_changes(paper_id) VALUES (?)", (ALL_PAPERS,))

    def _delete(self, paper_id: str) -> None:
        old = self.db.query("SELECT section, text FROM search_chunks WHERE paper_id = ?",
                            (paper_id,))
        if not old:
            return
        self._count_terms([" ".join(json.loads(r["section"])) + " " + r["text"] for r in old], -1)
        self._count_lexemes(self.db, paper_id, -1)
        pg_postings.remove_paper(self.db, paper_id)
        self.db.execute("DELETE FROM search_chunks WHERE paper_id = ?", (paper_id,))

    def _count_terms(self, bodies: Sequence[str], sign: int) -> None:
        counts: Counter[str] = Counter()
        for body in bodies:
            counts.update(set(WORD.findall(body.lower())))
        with self.db.transaction() as conn:  # sorted: concurrent writers lock rows in order
            conn.executemany(
                "INSERT INTO search_terms(term, df) VALUES (?, ?) ON CONFLICT(term)"
                " DO UPDATE SET df = search_terms.df + excluded.df",
                [(t, sign * counts[t]) for t in sorted(counts)])

    @staticmethod
    def _count_lexemes(conn: Any, paper_id: str, sign: int) -> None:
        """Add (or take away) the paper's chunks to the BM25 statistics of their group."""
        conn.execute(
            "INSERT INTO search_lexemes(grp, lexeme, df)"
            " SELECT grp, lexeme, ? * COUNT(*) FROM search_chunks,"
            " jsonb_object_keys(body_tf) AS lexeme WHERE paper_id = ?"
            " GROUP BY grp, lexeme ORDER BY grp, lexeme ON CONFLICT(grp, lexeme)"
            " DO UPDATE SET df = search_lexemes.df + excluded.df", (sign, paper_id))
        conn.execute(
            "UPDATE search_stats AS s SET chunks = s.chunks + ? * c.n,"
            " tokens = s.tokens + ? * c.tokens FROM (SELECT grp, COUNT(*) AS n,"
            " SUM(body_len) AS tokens FROM search_chunks WHERE paper_id = ? GROUP BY grp) AS c"
            " WHERE s.grp = c.grp", (sign, sign, paper_id))

    def section_kinds(self, rows: Sequence[int]) -> dict[int, str]:
        found = self.db.query("SELECT id, section_kind FROM search_chunks WHERE id = ANY(?)",
                              (list(rows),))
        return {r["id"]: r["section_kind"] for r in found}


class PgFullText(FullTextIndex):
    """BM25 with the filters applied in SQL: library-wide over impact-ordered postings
    (``pg_postings``; ``use_postings = False`` scans the lexeme maps of the chunks matching
    the rarest lexemes instead, as SQLite keeps the rarest words); within given papers, exact
    over their chunks' lexeme maps."""

    use_postings = True

    def search(self, terms: Sequence[str], k: int,
               filters: SearchFilters = NO_FILTERS) -> list[tuple[int, float]]:
        """Top ``k`` (row, score) for an OR of ``terms`` (CJK terms segmented as indexed)."""
        terms = self.segmenter_terms(terms)
        words = list(dict.fromkeys(w.lower() for t in terms for w in _TOKEN.findall(t)))
        if not words or k <= 0:
            return []
        query = [term for found in lexical_terms().terms(words) for term in found]
        hits: list[tuple[int, float]] = []
        for group, kinds in _GROUPS.items():
            wanted = [kind for kind in kinds if kind in (filters.kinds or kinds)]
            if wanted:
                hits += self._group(group, query, k, filters, wanted)
        return sorted(hits, key=lambda h: -h[1])[:k]

    def _group(self, group: str, query: list[str], k: int, filters: SearchFilters,
               kinds: list[str]) -> list[tuple[int, float]]:
        """BM25 in one group; ``query`` holds a term per query word, as FTS5 has a phrase
        per word (so a term two words share counts twice, as there)."""
        stats = self.db.query("SELECT chunks, tokens FROM search_stats WHERE grp = ?", (group,))
        chunks, tokens = (int(stats[0][0]), int(stats[0][1])) if stats else (0, 0)
        lexemes = self._lexemes(group, list(dict.fromkeys(query))) if chunks else {}
        if not lexemes:
            return []
        times = Counter(term for term in query if term in lexemes)
        idf = {name: times[name] * max(1e-6, math.log((chunks - n + 0.5) / (n + 0.5)))
               for name, n in lexemes.items()}
        average = max(1.0, tokens / chunks)
        if filters.paper_ids or not self.use_postings:
            kept = idf if filters.paper_ids else {w: idf[w] for w in self._rarest(lexemes)}
            return self._scan(group, kept, average, k, filters, kinds)
        narrowed = bool(filters.section_kinds or filters.exclude_papers
                        or filters.year_min is not None
                        or filters.year_max is not None or set(_GROUPS[group]) - set(kinds))
        depth = pg_postings.depths(lexemes, self.postings_budget)
        if narrowed:
            return self._filtered(group, idf, depth, average, k, filters, kinds,
                                  cut=depth != lexemes)
        sql, args = pg_postings.ranked(idf, depth, group, average, k)
        return [(int(r[0]), float(r[1])) for r in self.db.query(sql, args)]

    def _filtered(self, group: str, idf: dict[str, float], depth: dict[str, int],
                  average: float, k: int, filters: SearchFilters, kinds: list[str], *,
                  cut: bool) -> list[tuple[int, float]]:
        """BM25 under a filter: exact over the chunks it passes when they are few (faster
        than checking the candidates, ``SCAN_ROWS``), else the postings' candidates filtered
        (``pg_postings.ranked``), exact again when the cut left fewer than ``k``."""
        if self._passing(filters) <= SCAN_ROWS:
            return self._scan(group, idf, average, k, filters, kinds)
        where, params = filters.sql()
        sql, args = pg_postings.ranked(idf, depth, group, average, k, where=where,
                                       params=params)
        hits = [(int(r[0]), float(r[1])) for r in self.db.query(sql, args)]
        if len(hits) < k and cut:
            return self._scan(group, idf, average, k, filters, kinds)  # the cut lost rows
        return hits

    def _passing(self, filters: SearchFilters) -> float:
        """About how many chunks pass ``filters``: the planner's estimate (its statistics of
        the filter columns; a fraction of a millisecond, where counting a wide filter's rows
        took 13 ms). A wrong estimate costs time, not results: the scan ranks by exact BM25, the
        postings as they do without a filter."""
        where, params = filters.sql()
        plan = self.db.query(f"EXPLAIN (FORMAT JSON) SELECT 1 FROM search_chunks AS c WHERE {where}",
                             params)[0][0]
        return float(plan[0]["Plan"]["Plan Rows"])

    def _scan(self, group: str, idf: dict[str, float], average: float, k: int,
              filters: SearchFilters, kinds: list[str]) -> list[tuple[int, float]]:
        """Exact BM25 over every chunk matching a lexeme, from the chunks' lexeme maps
        (a paper's chunks; library-wide, the cost grows with the matching chunks). A
        lexeme's idf is counted once per query word that has it, as FTS5 does."""
        names = list(idf)
        where, params = filters.sql()
        sql = (
            "SELECT c.id, SUM(t.idf * t.tf * ? / (t.tf + ? * (? + ? * c.body_len / ?)))"
            " AS score FROM search_chunks AS c CROSS JOIN LATERAL (SELECT q.idf,"
            " (c.body_tf ->> q.lexeme)::float8 AS tf FROM unnest(?::text[], ?::float8[])"
            " AS q(lexeme, idf)) AS t"
            f" WHERE c.body_tf ?| ?::text[] AND t.tf IS NOT NULL AND c.grp = ?"
            f" AND c.kind = ANY(?) AND {where} GROUP BY c.id ORDER BY score DESC, c.id LIMIT ?")
        args = [K1 + 1, K1, 1 - B, B, average, names, list(idf.values()), names, group,
                kinds, *params, k]
        return [(int(r[0]), float(r[1])) for r in self.db.query(sql, args)]

    def _rarest(self, lexemes: dict[str, int]) -> dict[str, int]:
        """The rarest lexemes whose postings fit the budget (at least one): library-wide,
        scoring costs time linear in the matching chunks, and common words barely change
        BM25's order. By lexeme frequency, not word frequency as on SQLite: a stem matches
        every form of a word."""
        kept: dict[str, int] = {}
        total = 0
        for lexeme in sorted(lexemes, key=lambda w: lexemes[w]):
            total += lexemes[lexeme]
            if kept and total > self.postings_budget:
                break
            kept[lexeme] = lexemes[lexeme]
        return kept

    def _lexemes(self, group: str, terms: list[str]) -> dict[str, int]:
        """The ``terms`` that occur in ``group``, with their document frequencies."""
        rows = self.db.query("SELECT lexeme, df FROM search_lexemes WHERE grp = ?"
                             " AND lexeme = ANY(?) AND df > 0", (group, terms))
        return {str(r[0]): int(r[1]) for r in rows}


def term_frequencies(bodies: Sequence[str]) -> list[tuple[str, int]]:
    """Each body's term -> frequency map (JSON) and its length in terms, as FTS5 counts."""
    return [(_json(Counter(terms)), len(terms)) for terms in lexical_terms().terms(bodies)]


def _json(value: object) -> str:
    return json.dumps(value)
