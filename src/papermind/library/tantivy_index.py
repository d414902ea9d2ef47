"""Library-wide BM25 with tantivy: an on-disk inverted index next to the library file.

FTS5 ranks an OR-query by scoring every matching row (microseconds each), so its cost grows
with the library; tantivy's block-max WAND skips postings that cannot reach the top k
(bench/results/search_latency.md). The FTS5 tables stay the source of truth, written in the
same transaction as the chunk rows ("nothing half-stored"); this index is derived from them
and follows the change log (``search_changes``) as the HNSW file does: a stamp records the
generation it reflects, a search first replays the papers changed since (delete + re-add, one
commit per sync; replaying twice is harmless), and ``ALL_PAPERS`` or an unreadable index means
a rebuild. When tantivy is missing, another process holds the writer lock, or the library is
small (``search.lexical_min_rows``), FTS5 answers.

Tokens: the terms FTS5's own tokenizer makes of the FTS5 body text (``library.lexical_terms``:
Porter over ``unicode61 remove_diacritics 2``; CJK runs already split by ``library.segmenter``),
written space-separated and split on whitespace only, so every backend ranks by the same words
(the quality check is bench/search_quality.py --lexical). Scores are tantivy's BM25 (k1 1.2,
b 0.75), positive, higher is better.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from papermind.db import SqlDatabase
from papermind.library.chunk_store import ALL_PAPERS, CONTENT_FTS, REFERENCE_FTS, ChunkStore
from papermind.library.fulltext import NO_FILTERS, FullTextIndex, SearchFilters
from papermind.library.lexical_terms import lexical_terms
from papermind.library.segmenter import Segmenter

FORMAT = 2
"""Bump when the schema or the analyzer changes: an index of another format is rebuilt."""
ANALYZER = "papermind_bm25"
GROUPS = {CONTENT_FTS: "content", REFERENCE_FTS: "reference"}
WRITER_HEAP = 64_000_000
_BATCH = 2_000
LEXICAL_MIN_ROWS = 20_000
"""Chunks from which library search uses the tantivy index (below, FTS5 is as fast)."""
_log = logging.getLogger(__name__)


def tantivy_available() -> bool:
    try:
        import tantivy  # noqa: F401
    except ImportError:
        return False
    return True


def analyzer() -> Any:
    """Whitespace only: the indexed text is already ``lexical_terms`` terms."""
    from tantivy import TextAnalyzerBuilder, Tokenizer

    return TextAnalyzerBuilder(Tokenizer.whitespace()).build()


def _schema() -> Any:
    from tantivy import SchemaBuilder

    builder = SchemaBuilder()
    builder.add_integer_field("row", indexed=True, fast=True)
    for name in ("paper", "kind", "section"):
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("year", indexed=True, fast=True)
    builder.add_text_field("body", tokenizer_name=ANALYZER, index_option="freq")
    return builder.build()


class TantivyFullText:
    """``LexicalIndex`` over a tantivy index per FTS5 table, FTS5 (``fallback``) behind it."""

    def __init__(self, db: SqlDatabase, store: ChunkStore, fallback: FullTextIndex, *,
                 min_rows: int | None = LEXICAL_MIN_ROWS) -> None:
        self.db = db
        self.store = store
        self.fallback = fallback
        self.min_rows = min_rows
        self.folder = index_folder(db) if min_rows is not None and tantivy_available() else None
        self._indexes: dict[str, Any] | None = None
        self._generation = -1
        self._skip_generation = -1
        self._lock = threading.Lock()

    @property
    def segmenter(self) -> Segmenter:
        return self.fallback.segmenter

    @segmenter.setter
    def segmenter(self, value: Segmenter) -> None:
        self.fallback.segmenter = value

    def search(self, terms: Sequence[str], k: int,
               filters: SearchFilters = NO_FILTERS) -> list[tuple[int, float]]:
        """Top ``k`` (row, score) for an OR of ``terms``, as ``FullTextIndex.search``."""
        indexes = self.synced()
        if indexes is None:
            return self.fallback.search(terms, k, filters)
        tokens = self.tokens(terms)
        if not tokens or k <= 0:
            return []
        hits: list[tuple[int, float]] = []
        for table in FullTextIndex._tables(filters):
            hits += _query(indexes[table], tokens, k, filters, table)
        return sorted(hits, key=lambda h: (-h[1], h[0]))[:k]

    def tokens(self, terms: Sequence[str]) -> list[str]:
        """The index tokens of ``terms`` (CJK segmented as indexed), each once."""
        words = self.fallback.segmenter_terms(terms)
        return list(dict.fromkeys(t for found in lexical_terms().terms(words) for t in found))

    # -- keeping in step with the chunk rows ------------------------------------------
    def catch_up(self) -> None:
        """Replay what changed now (a bulk add ends with it: the first search after adding
        2,000 papers spent 30 s building this index)."""
        self.synced()

    def synced(self) -> dict[str, Any] | None:
        """The indexes, brought up to the change log's generation; None: use FTS5."""
        if self.folder is None:
            return None
        generation = self.store.generation()
        if self._indexes is not None and generation == self._generation:
            return self._indexes
        if generation == self._skip_generation:
            return None
        try:
            with self._lock:  # one sync at a time in this process (the API's threads)
                return self._catch_up(generation)
        except (OSError, ValueError, RuntimeError) as error:  # lock held elsewhere, bad files
            _log.info("tantivy index not usable (%s); FTS5 answers", error)
            self._indexes = None
            return None

    def _catch_up(self, generation: int) -> dict[str, Any] | None:
        assert self.folder is not None and self.min_rows is not None
        stamp = _read_stamp(self.folder)
        if stamp is None and not self.folder.exists() and self.store.count() < self.min_rows:
            self._skip_generation = generation
            return None
        indexes = self._indexes = self._indexes or self._open()
        # no stamp: a first build was cut short (or another format); a stamp ahead of the
        # log: the library file was replaced. Either way rebuild from the chunk rows.
        since = stamp if stamp is not None and stamp <= generation else -1
        if since != generation:
            self.apply(since)
        for index in indexes.values():
            index.reload()
        self._generation = generation
        return indexes

    def apply(self, since: int) -> int:
        """Replay the change log after generation ``since`` (-1: rebuild everything) into the
        indexes; returns the generation now reflected."""
        assert self.folder is not None and self._indexes is not None
        latest, changed = self.store.changes_since(since) if since >= 0 else (0, {ALL_PAPERS})
        if since < 0:
            latest = self.store.generation()
        writers = {t: i.writer(WRITER_HEAP, num_threads=1) for t, i in self._indexes.items()}
        papers = None if ALL_PAPERS in changed else sorted(changed)
        for writer in writers.values():
            if papers is None:
                writer.delete_all_documents()
            for paper_id in papers or ():
                writer.delete_documents_by_term("paper", paper_id)
        from tantivy import Document

        for table, row, paper_id, kind, section, year, body in self._rows(papers):
            writers[table].add_document(Document(row=row, paper=paper_id, kind=kind,
                                                 section=section, year=year, body=body))
        for writer in writers.values():
            writer.commit()
            writer.wait_merging_threads()
        _write_stamp(self.folder, latest)
        return latest

    def _rows(self, papers: Sequence[str] | None) -> Iterator[tuple[Any, ...]]:
        """(table, row, paper, kind, section kind, year, body) of the papers (None: all)."""
        where = "" if papers is None else f" WHERE c.paper_id IN ({','.join('?' * len(papers))})"
        for table in GROUPS:
            cursor = self.db.execute(
                "SELECT c.id, c.paper_id, c.kind, c.section_kind, c.year, f.body"
                f" FROM search_chunks AS c JOIN {table} AS f ON f.rowid = c.id{where}",
                list(papers or ()))
            while rows := cursor.fetchmany(_BATCH):
                bodies = lexical_terms().terms([r[5] for r in rows])
                for r, terms in zip(rows, bodies, strict=True):
                    yield (table, r[0], r[1], r[2], r[3], -1 if r[4] is None else r[4],
                           " ".join(terms))

    def _open(self) -> dict[str, Any]:
        """The two indexes (created when missing; rebuilt when unreadable)."""
        from tantivy import Index

        assert self.folder is not None
        schema = _schema()
        indexes: dict[str, Any] = {}
        for table, name in GROUPS.items():
            path = self.folder / name
            path.mkdir(parents=True, exist_ok=True)
            try:
                index = Index(schema, str(path), reuse=True)
            except ValueError:  # files of another schema or broken: start again
                shutil.rmtree(path, ignore_errors=True)
                path.mkdir(parents=True)
                index = Index(schema, str(path), reuse=False)
            index.register_tokenizer(ANALYZER, analyzer())
            indexes[table] = index
        return indexes


def _query(index: Any, tokens: list[str], k: int, filters: SearchFilters,
           table: str) -> list[tuple[int, float]]:
    from tantivy import Occur, Query

    schema = index.schema
    should = [Query.term_query(schema, "body", t, index_option="freq") for t in tokens]
    text = should[0] if len(should) == 1 else \
        Query.boolean_query([(Occur.Should, q) for q in should])
    musts = _filter_queries(schema, filters, table)
    nots = [Query.term_set_query(schema, "paper", list(filters.exclude_papers))] \
        if filters.exclude_papers else []
    query = text if not (musts or nots) else Query.boolean_query(
        [(Occur.Must, text), *((Occur.Must, Query.const_score_query(m, 0.0)) for m in musts),
         *((Occur.MustNot, q) for q in nots)])
    searcher = index.searcher()
    found = searcher.search(query, k, count=False).hits
    rows = searcher.fast_field_values("row", [address for _, address in found])
    return [(int(row), float(score)) for (score, _), row in zip(found, rows, strict=True)]


def _filter_queries(schema: Any, filters: SearchFilters, table: str) -> list[Any]:
    from tantivy import FieldType, Query

    out = []
    if filters.paper_ids:
        out.append(Query.term_set_query(schema, "paper", list(filters.paper_ids)))
    if filters.section_kinds:
        out.append(Query.term_set_query(schema, "section", list(filters.section_kinds)))
    kinds = set(filters.kinds or ())
    if table == CONTENT_FTS and kinds and not {"content", "equation", "caption"} <= kinds:
        out.append(Query.term_set_query(schema, "kind", sorted(kinds)))
    if filters.year_min is not None or filters.year_max is not None:
        low = max(filters.year_min if filters.year_min is not None else 0, 0)
        out.append(Query.range_query(schema, "year", FieldType.Integer, low, filters.year_max))
    return out


def index_folder(db: SqlDatabase) -> Path | None:
    path = db.path
    return path.with_name(f"{path.name}.bm25") if isinstance(path, Path) else None


def _read_stamp(folder: Path) -> int | None:
    """The generation the index reflects, or None (no index, or another format)."""
    try:
        stamp = json.loads((folder / "stamp.json").read_text())
    except (OSError, ValueError):
        return None
    generation = stamp.get("generation") if isinstance(stamp, dict) else None
    ok = isinstance(generation, int) and stamp.get("format") == FORMAT
    return generation if ok else None


def _write_stamp(folder: Path, generation: int) -> None:
    partial = folder / f"stamp.{os.getpid()}.tmp"
    partial.write_text(json.dumps({"format": FORMAT, "generation": generation}))
    partial.replace(folder / "stamp.json")
