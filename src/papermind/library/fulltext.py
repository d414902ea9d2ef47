"""BM25 over the SQLite FTS5 table, with the search filters applied in SQL."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from papermind.db import SqlDatabase
from papermind.domain import ChunkKind, SectionKind
from papermind.i18n.scripts import has_cjk
from papermind.library.chunk_store import CONTENT_FTS, REFERENCE_FTS, ChunkStore
from papermind.library.segmenter import Segmenter

_FTS_TERM = re.compile(r"[^\W_]+", re.UNICODE)
_RANGE_QUERY_MAX_PAPERS = 16
POSTINGS_BUDGET = 20_000
"""Library-wide BM25 keeps the rarest query words whose document frequencies sum to this."""


@dataclass(frozen=True)
class SearchFilters:
    """Which chunks a search may return; empty lists mean 'any'. ``exclude_papers``: chunks
    of these papers never (a library-wide search hides older versions of a work this way, so
    it stays library-wide: approximate, and under the relevance floor)."""

    paper_ids: Sequence[str] = ()
    exclude_papers: Sequence[str] = ()
    section_kinds: Sequence[SectionKind] = ()
    kinds: Sequence[ChunkKind] = ("content", "equation", "caption")
    year_min: int | None = None
    year_max: int | None = None

    def sql(self) -> tuple[str, list[object]]:
        """A WHERE fragment over ``c`` (search_chunks) and its parameters."""
        clauses: list[str] = []
        params: list[object] = []
        for column, values in (("paper_id", self.paper_ids), ("section_kind", self.section_kinds),
                               ("kind", self.kinds)):
            if values:
                clauses.append(f"c.{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
        if self.exclude_papers:
            clauses.append(f"c.paper_id NOT IN ({','.join('?' * len(self.exclude_papers))})")
            params.extend(self.exclude_papers)
        if self.year_min is not None:
            clauses.append("c.year >= ?")
            params.append(self.year_min)
        if self.year_max is not None:
            clauses.append("c.year <= ?")
            params.append(self.year_max)
        return (" AND ".join(clauses) or "1 = 1"), params


NO_FILTERS = SearchFilters()


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 OR-query of quoted terms (no operator injection possible)."""
    words = dict.fromkeys(w.lower() for t in terms for w in _FTS_TERM.findall(t))
    return " OR ".join(f'"{w}"' for w in words)


class FullTextIndex:
    """Ranked BM25 search over the FTS5 tables; scores are positive (higher is better).

    The common case (no section-kind or year filter) queries FTS5 alone, so SQLite ranks the
    matches inside FTS5 without a join per matching row; a paper filter becomes a rowid range.
    """

    def __init__(self, db: SqlDatabase, store: ChunkStore,
                 segmenter: Segmenter | None = None) -> None:
        self.db = db
        self.store = store
        self.segmenter = segmenter or Segmenter()
        self.postings_budget = POSTINGS_BUDGET

    def search(self, terms: Sequence[str], k: int,
               filters: SearchFilters = NO_FILTERS) -> list[tuple[int, float]]:
        """Top ``k`` (row, score) for an OR of ``terms`` (CJK terms segmented as indexed)."""
        terms = self.segmenter_terms(terms)
        ranges: list[tuple[int, int] | None] = [None]
        if filters.paper_ids and len(filters.paper_ids) <= _RANGE_QUERY_MAX_PAPERS:
            ranges = list(self.store.paper_ranges(filters.paper_ids))
        else:
            terms = self.prune(terms)
        expression = match_expression(terms)
        if not expression or k <= 0:
            return []
        gaps: list[tuple[int, int]] | None = None
        if filters.exclude_papers and len(filters.exclude_papers) <= _RANGE_QUERY_MAX_PAPERS:
            gaps = self.store.paper_ranges(filters.exclude_papers)
        hits: list[tuple[int, float]] = []
        for table in self._tables(filters):
            for rows in ranges:
                hits += self._query(table, expression, k, filters, rows, gaps)
        return sorted(hits, key=lambda h: -h[1])[:k]

    def catch_up(self) -> None:
        """Nothing to do: FTS5 is written with the chunk rows."""

    def segmenter_terms(self, terms: Sequence[str]) -> list[str]:
        """``terms`` with each Chinese/Japanese term replaced by its index tokens."""
        out: list[str] = []
        for term in terms:
            out.extend(self.segmenter.query_terms(term) if has_cjk(term) else [term])
        return out

    def prune(self, terms: Sequence[str]) -> list[str]:
        """The rarest words whose postings fit the budget (at least one word).

        FTS5 scores every matching row, so a library-wide OR-query over common words costs
        time linear in their document frequencies; those words barely change BM25's order.
        """
        words = list(dict.fromkeys(w.lower() for t in terms for w in _FTS_TERM.findall(t)))
        if len(words) < 2:
            return words
        df = self.store.document_frequencies(words)
        # words never seen as such cost nothing to keep (they may still match by their stem)
        kept = [w for w in words if not df.get(w)]
        total = 0
        for known, word in enumerate(sorted((w for w in words if df.get(w)), key=lambda w: df[w])):
            total += df[word]
            if known and total > self.postings_budget:
                break
            kept.append(word)
        return kept

    @staticmethod
    def _tables(filters: SearchFilters) -> list[str]:
        kinds = set(filters.kinds or ("content", "equation", "caption", "reference"))
        tables = [CONTENT_FTS] if kinds - {"reference"} else []
        return tables + ([REFERENCE_FTS] if "reference" in kinds else [])

    def _query(self, table: str, expression: str, k: int, filters: SearchFilters,
               rows: tuple[int, int] | None,
               gaps: list[tuple[int, int]] | None) -> list[tuple[int, float]]:
        """One FTS5 query; ``rows``: a paper's row range, ``gaps``: the excluded papers' row
        ranges (None: they are checked in the join)."""
        bounds = " AND f.rowid BETWEEN ? AND ?" if rows else ""
        bounds += " AND f.rowid NOT BETWEEN ? AND ?" * len(gaps or ())
        args: list[object] = [expression, *(rows or ()), *(n for gap in gaps or () for n in gap)]
        if _needs_join(filters, table, ranged=rows is not None, gapped=gaps is not None):
            where, params = filters.sql()
            sql = (f"SELECT f.rowid AS row, bm25({table}) AS rank FROM {table} AS f"
                   f" JOIN search_chunks AS c ON c.id = f.rowid"
                   f" WHERE {table} MATCH ?{bounds} AND {where} ORDER BY rank LIMIT ?")
            args += params
        else:
            sql = (f"SELECT f.rowid AS row, rank FROM {table} AS f"
                   f" WHERE {table} MATCH ?{bounds} ORDER BY rank LIMIT ?")
        return [(int(r["row"]), -float(r["rank"])) for r in self.db.query(sql, [*args, k])]


def _needs_join(filters: SearchFilters, table: str, *, ranged: bool, gapped: bool) -> bool:
    """Whether a filter can only be checked against the chunk rows."""
    kinds = set(filters.kinds or ())
    content_kinds = {"content", "equation", "caption"}
    partial_kinds = table == CONTENT_FTS and bool(kinds) and not content_kinds <= kinds
    return bool(filters.section_kinds or filters.year_min is not None
                or filters.year_max is not None or partial_kinds
                or (filters.paper_ids and not ranged)
                or (filters.exclude_papers and not gapped))
