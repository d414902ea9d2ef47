"""Hybrid search over the library: BM25 (FTS5) + dense vectors, fused (library/fusion.py).

``SearchIndex`` is also the library's indexer: ``index_paper`` / ``remove_paper`` keep the
search tables in step with the paper store (they join the caller's transaction).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from papermind.db import SqlDatabase
from papermind.domain import Anchor, Chunk, ChunkKind, Paper, SearchHit, SearchMode, SectionKind
from papermind.errors import ConfigError, InputError
from papermind.library.chunk_store import StoredChunk
from papermind.library.chunking import chunk_paper, index_text
from papermind.library.coverage import keep_counts, pending_papers
from papermind.library.embedders import Embedder
from papermind.library.embedding_cache import EmbedProgress
from papermind.library.fulltext import SearchFilters
from papermind.library.fusion import FusionMethod, fuse, fuse_with
from papermind.library.match_support import DENSE_MARGIN, TOP, single_shared_word
from papermind.library.ports import DenseIndex, search_backend
from papermind.library.query import QueryPlan, analyse, plain_plan
from papermind.library.rerank import Reranker
from papermind.library.segmenter import Segmenter, SegmenterMode

MODES: tuple[SearchMode, ...] = ("bm25", "dense", "hybrid")
MAX_QUERY_CHARS = 2000
PENDING_PAPERS_MAX = 10_000
"""More papers with pending chunks than this: find the chunks by one scan, not by paper id."""


@dataclass(frozen=True)
class SearchOptions:
    """Tuning of ranking; defaults are the measured best (bench/search_quality.py)."""

    chunk_tokens: int = 220
    bm25_weight: float = 1.0
    dense_weight: float = 1.0
    fusion: FusionMethod = "adaptive"
    """How hybrid combines the two rankings: per query (``adaptive``), normalised scores
    (``score``) or ranks (``rrf``); library/fusion.py."""
    rrf_k: int = 60
    candidates: int = 50
    enhance_queries: bool = True
    section_priors: bool = False
    rerank_depth: int = 20
    cjk_segmenter: SegmenterMode = "bigram"
    """How Chinese/Japanese text is split into BM25 tokens (bench/zh_search.py)."""
    ann_min_rows: int | None = 20_000
    """Library-wide dense search uses the HNSW index from this many vectors (None: never)."""
    lexical_min_rows: int | None = 20_000
    """BM25 uses the tantivy index (``library.tantivy_index``) from this many chunks on
    SQLite (None: FTS5 only)."""
    relevance_floor: float | None = None
    """Library-wide dense/hybrid search returns nothing ('no good match') when the best dense
    cosine is below this (within chosen papers it never does); None = the embedder's measured
    ``relevance_floor`` (if any, see ``floor_at``), 0 = off."""


class SearchIndex:
    """Index papers and search them (bm25 | dense | hybrid), optionally reranked."""

    def __init__(self, db: SqlDatabase, embedder: Embedder | None, *,
                 options: SearchOptions = SearchOptions(), reranker: Reranker | None = None,
                 progress: EmbedProgress | None = None) -> None:
        self.db = db
        self.options = options
        self.embedder = embedder
        self.reranker = reranker
        self.progress = progress
        self.backend = search_backend(db, lexical_min_rows=options.lexical_min_rows)
        self.store = self.backend.chunks
        self.segmenter = Segmenter(options.cjk_segmenter)
        self.fulltext = self.backend.fulltext
        self.fulltext.segmenter = self.segmenter  # CJK tokens, the same for every backend
        self.cache = self.backend.embeddings(embedder) if embedder is not None else None
        self._vectors: DenseIndex | None = None
        self._recent: dict[str, np.ndarray] = {}
        self.embedded = 0
        """Chunk texts embedded by this index so far (cache misses)."""

    # -- indexing ---------------------------------------------------------------------
    def index_paper(self, paper: Paper, *, embed: bool = True) -> None:
        """(Re)index one paper; only chunk texts never embedded before are embedded.

        With ``embed=False`` only the chunk rows are written (BM25 finds them at once) and
        dense search covers them once ``embed_pending`` has given them vectors.
        """
        chunks, bodies = self._prepare(paper) if embed else self._chunks(paper)
        self.store.replace_paper(paper.id, chunks, self._fts_bodies(bodies))

    def embed_pending(self, paper_ids: Sequence[str] | None = None,
                      progress: EmbedProgress | None = None) -> int:
        """Embed the stored chunks (of ``paper_ids``, or all) that have no vector yet, in
        batches across papers; each batch commits, so an interrupted run resumes where it
        stopped. Returns how many texts were embedded."""
        if self.cache is None:
            return 0
        if paper_ids is None:  # the papers that have any, from the kept counts
            papers = pending_papers(self.db, self.cache.embedder.name)
            if not papers:
                return 0
            paper_ids = papers if len(papers) <= PENDING_PAPERS_MAX else None  # else scan all
        pending = self.store.unembedded(self.cache.embedder.name, paper_ids)
        size = max(1, self.cache.batch_size)
        report = progress or self.progress
        for start in range(0, len(pending), size):
            batch = pending[start:start + size]
            self.cache.store([h for _, h, _ in batch],
                             self.cache.embedder.embed_documents([t for _, _, t in batch]))
            self.store.touch([h for _, h, _ in batch])
            self.embedded += len(batch)
            if report is not None:
                report(start + len(batch), len(pending))
        return len(pending)

    def _chunks(self, paper: Paper) -> tuple[list[Chunk], list[str]]:
        chunks = chunk_paper(paper, self.options.chunk_tokens)
        return chunks, [index_text(c) for c in chunks]

    def _fts_bodies(self, bodies: Sequence[str]) -> list[str]:
        """What BM25 indexes: the embedded text with CJK runs split into tokens."""
        return [self.segmenter.index_text(body) for body in bodies]

    def _prepare(self, paper: Paper) -> tuple[list[Chunk], list[str]]:
        """Chunk ``paper`` and make sure every chunk's embedding is cached."""
        chunks, bodies = self._chunks(paper)
        if self.cache is not None:
            self.embedded += self.cache.ensure(
                [(c.content_hash, b) for c, b in zip(chunks, bodies, strict=True)], self.progress)
        return chunks, bodies

    def remove_paper(self, paper_id: str) -> None:
        self.store.remove_paper(paper_id)

    def catch_up(self, threads: int = 1) -> None:
        """Bring the library-wide indexes (BM25, and HNSW when there is an embedder) up to
        date with the stored chunks now, the HNSW build on ``threads``, and the per-paper
        dense counts that `list` shows: a bulk add ends with this, so its first search does
        not build them (on 243k chunks, 30 s for BM25 and 100 s for HNSW on one thread)."""
        self.fulltext.catch_up()
        if self.embedder is not None:
            self.vectors.catch_up(threads)
        keep_counts(self.db, self.embedder.name if self.embedder is not None else "")

    def rebuild(self, papers: Iterable[Paper]) -> tuple[int, int]:
        """Replace all chunks by those of ``papers``; returns (papers, texts embedded).

        Embeddings are computed first and committed batch by batch (an interrupted rebuild
        keeps them); the swap of the chunk tables is one transaction.
        """
        before = self.embedded
        prepared = [(paper.id, *self._prepare(paper)) for paper in papers]
        with self.db.transaction():
            self.store.clear()
            for paper_id, chunks, bodies in prepared:
                self.store.replace_paper(paper_id, chunks, self._fts_bodies(bodies))
        return len(prepared), self.embedded - before

    # -- searching --------------------------------------------------------------------
    def search(self, query: str, *, paper_ids: Sequence[str] | None = None,
               mode: SearchMode = "hybrid", k: int = 10,
               section_kinds: Sequence[SectionKind] | None = None,
               year_min: int | None = None, year_max: int | None = None,
               kinds: Sequence[ChunkKind] | None = None,
               exclude_papers: Sequence[str] = ()) -> list[SearchHit]:
        """The ``k`` best chunks for ``query`` that pass the filters, best first (never from
        ``exclude_papers``; without ``paper_ids`` the search is library-wide, and says "no
        good match" (``[]``) when nothing is over the relevance floor)."""
        query = query.strip()
        if not query:
            raise InputError("empty search query")
        if len(query) > MAX_QUERY_CHARS:
            raise InputError(f"search query too long ({len(query)} characters, "
                             f"limit {MAX_QUERY_CHARS})")
        if mode not in MODES:
            raise InputError(f"unknown search mode {mode!r} (use {', '.join(MODES)})")
        if k < 1:
            raise InputError("k must be at least 1")
        filters = _filters(paper_ids, section_kinds, year_min, year_max, kinds, exclude_papers)
        plan = analyse(query) if self.options.enhance_queries else plain_plan(query)
        depth = max(self.options.candidates, k, self.options.rerank_depth if self.reranker
                    else 0)
        scored, best_dense = self._ranked(plan, mode, depth, filters)
        if best_dense is not None and not paper_ids and (
                self._nothing_close(plan, best_dense, filters)
                or mode == "hybrid" and self._only_a_word(query, scored, best_dense)):
            return []  # nothing in the library is close: "no good match", not ten weak hits
        hits = self._hits(scored[:depth] if self.reranker else scored[:k])
        if self.reranker is not None and hits:
            return self.reranker.rerank(query, hits[:max(k, self.options.rerank_depth)], k)
        return hits

    @property
    def floor(self) -> Floor:
        """The relevance floor in force (0 = none): a cosine, or calibration points."""
        if self.options.relevance_floor is not None:
            return self.options.relevance_floor
        return getattr(self.embedder, "relevance_floor", 0.0) or 0.0

    def _nothing_close(self, plan: QueryPlan, best: float, filters: SearchFilters) -> bool:
        """Whether no chunk passing ``filters`` is over the floor: ``best`` (the search's top
        cosine) is under it, and so is a harder search's (an approximate index can miss the
        one close chunk; the harder look costs only queries that would be refused)."""
        if not self._below_floor(best):
            return False
        found = self.vectors.search(self._query_vector(plan.dense_text), 1, filters,
                                    harder=True)
        return not found or self._below_floor(found[0][1])

    def _below_floor(self, best: float) -> bool:
        """Whether ``best``, the top dense cosine of a library-wide search, is under the floor
        (a floor of 0 or less is off)."""
        floor = self._floor_for(best)
        return floor > 0 and best < floor

    def _floor_for(self, best: float) -> float:
        """The floor that applies to ``best`` (the library's size is looked up only when the
        floor depends on it and matters)."""
        floor = self.floor
        if not isinstance(floor, (int, float)):  # the size matters only between the ends
            low, high = min(f for _, f in floor), max(f for _, f in floor)
            floor = low if best < low else high if best >= high else \
                floor_at(floor, self.vectors.count())
        return float(floor)

    def _only_a_word(self, query: str, scored: list[tuple[int, float]], best: float) -> bool:
        """Whether the top hits share only one word with the query and the dense side does
        not stand out over the floor (``match_support``); off with the floor."""
        floor = self._floor_for(best + DENSE_MARGIN)
        if floor <= 0 or best >= floor + DENSE_MARGIN:
            return False
        return single_shared_word(query, [h.text for h in self._hits(scored[:TOP])])

    def _ranked(self, plan: QueryPlan, mode: SearchMode, depth: int,
                filters: SearchFilters) -> tuple[list[tuple[int, float]], float | None]:
        """Ranked (row, score) pairs and the best dense cosine (None without dense)."""
        lexical = self.fulltext.search(plan.keywords, depth, filters) \
            if mode in ("bm25", "hybrid") else []
        dense: list[tuple[int, float]] = []
        if mode in ("dense", "hybrid"):
            if self.embedder is None:
                if mode == "dense":
                    raise ConfigError("dense search needs an embedder",
                                      hint="set search.embedder (e.g. 'e5')")
            else:
                dense = self.vectors.search(self._query_vector(plan.dense_text), depth, filters)
        best = dense[0][1] if dense else (0.0 if mode != "bm25" and self.embedder else None)
        if mode == "bm25" or (mode == "hybrid" and self.embedder is None):
            return self._prioritised(plan, lexical, score_is_rank=False), None
        if mode == "dense":
            return self._prioritised(plan, dense, score_is_rank=False), best
        fused = fuse_with(self.options.fusion, [lexical, dense],
                          [self.options.bm25_weight, self.options.dense_weight],
                          self.options.rrf_k)
        return self._prioritised(plan, fused, score_is_rank=True), best

    def _query_vector(self, text: str) -> np.ndarray:
        """The query's embedding, remembered for the last few queries."""
        assert self.embedder is not None
        vector = self._recent.pop(text, None)
        if vector is None:
            vector = self.embedder.embed_query(text)
        self._recent[text] = vector
        while len(self._recent) > 64:
            self._recent.pop(next(iter(self._recent)))
        return vector

    def _prioritised(self, plan: QueryPlan, ranked: list[tuple[int, float]], *,
                     score_is_rank: bool) -> list[tuple[int, float]]:
        """Scale scores by the section prior (off by default: it hurt on QASPER).

        Single-mode scores are first turned into RRF scores so that the prior is comparable.
        """
        if not self.options.section_priors or not plan.section_prior or not ranked:
            return ranked
        kinds = self._section_kinds([r for r, _ in ranked])
        if not score_is_rank:
            ranked = fuse([ranked], [1.0], self.options.rrf_k)
        rescored = [(row, score * plan.prior(kinds.get(row, "other"))) for row, score in ranked]
        return sorted(rescored, key=lambda r: -r[1])

    def _section_kinds(self, rows: list[int]) -> dict[int, SectionKind]:
        return self.store.section_kinds(rows)  # type: ignore[return-value]

    def _hits(self, scored: list[tuple[int, float]]) -> list[SearchHit]:
        chunks = self.store.fetch(row for row, _ in scored)
        return [to_hit(chunks[row], score) for row, score in scored if row in chunks]

    @property
    def vectors(self) -> DenseIndex:
        if self._vectors is None:
            assert self.embedder is not None
            self._vectors = self.backend.vectors(self.embedder.name, self.embedder.dim,
                                                 ann_min_rows=self.options.ann_min_rows)
        return self._vectors


Floor = float | Sequence[tuple[int, float]]
"""A relevance floor: one cosine, or (library size in chunks, cosine) calibration points."""


def floor_at(floor: Floor, chunks: int) -> float:
    """The floor for a library of ``chunks`` vectors: a number as it is; calibration points
    interpolated linearly in log(chunks), held constant beyond the first and the last.

    An off-topic question's best cosine grows with the library (more chunks, more chances of a
    near one: bench/results/relevance_floor.md), so one fixed cosine that refuses it in a
    library of 1,000 chunks lets it through in one of 8,000.
    """
    if isinstance(floor, (int, float)):
        return float(floor)
    points = sorted(floor)
    if chunks <= points[0][0]:
        return points[0][1]
    for (n0, f0), (n1, f1) in itertools.pairwise(points):
        if chunks <= n1:
            share = math.log(chunks / n0) / math.log(n1 / n0)
            return f0 + share * (f1 - f0)
    return points[-1][1]


def to_hit(chunk: StoredChunk, score: float) -> SearchHit:
    return SearchHit(paper_id=chunk.paper_id, chunk_id=chunk.chunk_id, score=score,
                     text=chunk.text, section=" > ".join(chunk.section_path),
                     section_kind=chunk.section_kind, anchor=span(chunk.anchors),
                     year=chunk.year)


def span(anchors: Sequence[Anchor]) -> Anchor | None:
    """One anchor from the first line of ``anchors`` to the last."""
    if not anchors:
        return None
    first, last = anchors[0], anchors[-1]
    last_page = last.page_end or last.page
    return Anchor(paper_id=first.paper_id, page=first.page, line_start=first.line_start,
                  line_end=last.line_end,
                  page_end=last_page if last_page != first.page else None,
                  boxes=[b for a in anchors for b in a.boxes])


def _filters(paper_ids: Sequence[str] | None, section_kinds: Sequence[SectionKind] | None,
             year_min: int | None, year_max: int | None,
             kinds: Sequence[ChunkKind] | None, exclude_papers: Sequence[str]) -> SearchFilters:
    sections = tuple(section_kinds or ())
    chosen: tuple[ChunkKind, ...] = tuple(kinds) if kinds is not None else (
        "content", "equation", "caption", *(("reference",) if "references" in sections else ()))
    return SearchFilters(paper_ids=tuple(paper_ids or ()), exclude_papers=tuple(exclude_papers),
                         section_kinds=sections,
                         kinds=chosen, year_min=year_min, year_max=year_max)
