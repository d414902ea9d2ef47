"""The composition root: the only place that builds concrete objects from Settings.

Interfaces create one Container per process (CLI invocation, API app) and ask it for
services; everything is built lazily, once. To plug in a new component, add a cached
property here and pass it to the services that need it. Storage (library database, job
store, job queue, checkpointer, shared LLM limits) comes from the storage backend that
``storage.url`` names (``services.storage``). The use cases never see the container: each
declares the parts it needs as a Protocol (``reading.ReadingParts``, ``review.ReviewParts``,
``qa.QAHost``), which the container satisfies and passes (checked by mypy at ``job_service``).
"""

from __future__ import annotations

import os
from contextlib import asynccontextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papermind.config import Settings
from papermind.db import SqlDatabase
from papermind.disk_writes import storage_fault
from papermind.domain import Paper
from papermind.library.papers import PaperRecord, PaperRepository
from papermind.services.library import FileParser, Indexer, LibraryService
from papermind.services.page_images import PageImages

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Sequence
    from types import TracebackType

    from langgraph.checkpoint.base import BaseCheckpointSaver

    from papermind.grounding import GroundingEngine
    from papermind.ingest.sandbox import InProcess
    from papermind.ingest.sandbox_pool import SandboxPool
    from papermind.library.coverage import DenseCoverage
    from papermind.library.embedding_cache import EmbedProgress
    from papermind.library.search import SearchIndex
    from papermind.llm import Gateway
    from papermind.scholar.cache import ScholarCache
    from papermind.services.add_by_id import AddByIdService
    from papermind.services.catalog import CatalogService
    from papermind.services.exports import ExportService
    from papermind.services.imports import ImportService
    from papermind.services.job_leases import LeaseKeeper
    from papermind.services.job_store import JobRecords
    from papermind.services.jobs import JobRunner, JobService
    from papermind.services.page_text import PageText
    from papermind.services.references import ReferenceService
    from papermind.services.search import SearchService
    from papermind.services.storage import StorageBackend


class Container:
    """Builds and holds the objects of one process, from one Settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @cached_property
    def storage_backend(self) -> StorageBackend:
        """The storage backend ``storage.url`` names (the registry: ``services.storage``)."""
        from papermind.services.storage import backend_for

        return backend_for(self.settings.storage_url)

    @cached_property
    def storage_url(self) -> str:
        """``storage.url`` as every connection opens it (on PostgreSQL with TCP keepalives)."""
        return self.storage_backend.connection_url(self.settings.storage_url,
                                                   self.settings.storage.keepalive_s)

    @cached_property
    def db(self) -> SqlDatabase:
        """The library database ``storage.url`` names: by default the SQLite file under the
        home folder (created on first use), else PostgreSQL. The one place that opens it."""
        return self.storage_backend.database(self.storage_url)

    @cached_property
    def papers(self) -> PaperRepository:
        """Paper rows in the library database; their files under ``storage.files``."""
        return PaperRepository(self.db, self.settings.files_dir)

    @cached_property
    def page_images(self) -> PageImages:
        """Rendered PDF pages, cached on disk under the home folder."""
        return PageImages(self.papers, self.settings.home_dir / "cache" / "pages",
                          render=self.pdf_engine.render)

    @cached_property
    def page_text(self) -> PageText:
        """Word boxes of PDF pages (the reader's text layer), cached under the home folder."""
        from papermind.services.page_text import PageText

        return PageText(self.papers, self.settings.home_dir / "cache" / "words",
                        read_words=self.pdf_engine.words)

    @cached_property
    def pdf_engine(self) -> SandboxPool | InProcess:
        """Where files are parsed and PDF pages rendered: a worker process under the
        ``ingest.worker_*`` limits (shared by every container of this process)."""
        from papermind.ingest.sandbox import pdf_engine

        return pdf_engine(self.settings.ingest)

    @cached_property
    def search_index(self) -> SearchIndex:
        """BM25 + dense index over the library's chunks (imported lazily: numpy, onnx)."""
        from papermind.services.search import build_search_index

        return build_search_index(self.settings, self.db)

    @cached_property
    def search(self) -> SearchService:
        """Search, reranked by the 'reranker' role when it runs on a configured endpoint."""
        from papermind.services.search import SearchService, build_llm_reranker

        return SearchService(self.search_index, self.papers, superseded=self.catalog.superseded,
                             reranker=build_llm_reranker(self.settings, lambda: self.gateway))

    @cached_property
    def indexer(self) -> Indexer:
        """Keeps search in step with the library; the index (and its embedding model) is
        built on the first add or remove, so `list` and `show` never load a model."""
        return _DeferredIndexer(self)

    @cached_property
    def gateway(self) -> Gateway:
        """The process's model gateway; its response cache lives in the library file."""
        from papermind.llm import build_gateway

        shared = self.storage_backend.shared_limits  # one rate-limited key, many workers
        limiters = shared.factory(self.storage_url) if shared is not None else None
        return build_gateway(self.settings.llm, db=self.db, limiter_factory=limiters,
                             home=self.settings.home_dir)

    @cached_property
    def grounder(self) -> GroundingEngine:
        """The grounding engine every workflow uses (keeps recent papers indexed)."""
        from papermind.grounding import GroundingEngine  # asyncio and friends: not for `list`

        return GroundingEngine()

    @cached_property
    def parser(self) -> FileParser:
        """Files -> Paper with the ingest settings; touches no library."""
        return FileParser(self._parse_bytes,
                          max_file_bytes=int(self.settings.ingest.max_file_mb * 2**20))

    @cached_property
    def library(self) -> LibraryService:
        return LibraryService(self.papers, self.parser, indexer=self.indexer, catalog=self.catalog)

    def remove_paper(self, paper_id: str) -> PaperRecord:
        """Remove a paper (row, file, index entries) and its cached page images. On a full
        disk (the database cannot even write its delete), what the paper holds outside the
        database is freed first (cached pages, then its original file) and the remove tried
        once more: removing is how a user frees space."""
        try:
            removed = self.library.remove(paper_id)
        except Exception as err:
            if storage_fault(err) is None:
                raise
            record = self.papers.record(self.papers.resolve(paper_id))
            self.page_images.forget(record.id)
            self.page_text.forget(record.id)
            record.file.unlink(missing_ok=True)
            removed = self.library.remove(record.id)
        self.page_images.forget(removed.id)
        self.page_text.forget(removed.id)
        return removed

    @cached_property
    def catalog(self) -> CatalogService:
        """Work metadata, versions, tags and collections of the stored papers."""
        from papermind.library.catalog import Catalog
        from papermind.library.labels import LabelStore
        from papermind.services.catalog import CatalogService

        return CatalogService(self.papers, Catalog(self.db), LabelStore(self.db))

    @cached_property
    def imports(self) -> ImportService:
        from papermind.library.import_log import ImportLog
        from papermind.services.imports import ImportService

        imports = self.settings.imports
        return ImportService(self.library, self.catalog, ImportLog(self.db),
                             zotero_base_dir=imports.zotero_base_dir,
                             zotero_prefs=imports.zotero_prefs)

    @cached_property
    def scholar_cache(self) -> ScholarCache:
        """Answers of the scholarly sources, kept in the library database."""
        from papermind.scholar.cache import ScholarCache

        return ScholarCache(self.db)

    @cached_property
    def references(self) -> ReferenceService:
        """Bibliography checks against the scholarly sources (online only)."""
        from papermind.services.references import ReferenceService

        return ReferenceService(self.settings.scholar, self.scholar_cache, self.parser,
                                self.library)

    @cached_property
    def add_by_id(self) -> AddByIdService:
        """`papermind add doi:... | arxiv:... | URL` (online only)."""
        from papermind.services.add_by_id import AddByIdService

        return AddByIdService(self.settings, self.scholar_cache, self.library, self.imports)

    @cached_property
    def exports(self) -> ExportService:
        from papermind.services.exports import ExportService

        return ExportService(self.catalog)

    @asynccontextmanager
    async def checkpointer(self) -> AsyncIterator[BaseCheckpointSaver[Any]]:
        """The durable checkpointer every workflow run uses (thread id = job id).

        The only place that opens one: the storage backend's (the SQLite file
        ``settings.checkpoint_path`` beside the library, or LangGraph's Postgres
        checkpointer, so any worker resumes any job); a serializer that loads our own
        models only.
        """
        async with self.storage_backend.checkpointer(
                self.storage_url, self.settings.checkpoint_path) as saver:
            yield saver

    def report_dir(self, job_id: str) -> Path:
        """Where a job's report files go by default: ``<home>/reports/<job id>/``
        (never derived from user input beyond the job id)."""
        return self.settings.home_dir / "reports" / job_id

    def report_file(self, job_id: str, name: str) -> Path:
        """A job's report file, fetched from the job store into ``report_dir`` when a
        worker on another machine wrote it (the path may not exist: no such report)."""
        path = self.report_dir(job_id) / name
        if not path.is_file():
            data = self.job_store.file(job_id, name)
            if data is not None:
                from papermind.disk_writes import write_atomically

                write_atomically(path, data)
        return path

    @cached_property
    def job_store(self) -> JobRecords:
        """Job records and events: in the library file, or on the PostgreSQL server that
        the API and every worker share."""
        return self.storage_backend.job_store(self.storage_url, lambda: self.db)

    @cached_property
    def job_leases(self) -> LeaseKeeper:
        """This process's job leases, for runs outside the job service (the CLI's)."""
        from papermind.services.job_leases import LeaseKeeper

        return LeaseKeeper(self.job_store, self.settings.jobs.lease_s)

    def job_service(self, runners: dict[Any, JobRunner] | None = None,
                    gateway: Any = None, *, enqueue_only: bool | None = None) -> JobService:
        """Jobs over ``job_store`` running the workflow table's rows (or ``runners``).

        With a backend that has a job queue (PostgreSQL; ``jobs.runner`` auto / queue) the
        service only enqueues, for `papermind worker`; ``enqueue_only=False`` makes one that
        runs jobs (a worker's)."""
        from papermind.services.job_runners import workflow_runners
        from papermind.services.jobs import JobService

        work_queue = self.storage_backend.job_queue
        if enqueue_only is None:
            runner = self.settings.jobs.runner
            enqueue_only = runner == "queue" or (runner == "auto" and work_queue is not None)
        queue = None
        if enqueue_only:
            from papermind.errors import ConfigError

            if work_queue is None:
                raise ConfigError("jobs.runner 'queue' needs the library on PostgreSQL",
                                  hint="set storage.url (PAPERMIND_STORAGE__URL) to a "
                                       "postgresql:// URL, or jobs.runner to 'auto'")
            queue = work_queue.open(self.storage_url)
        return JobService(self.job_store, runners or workflow_runners(self, gateway=gateway),
                          workers=self.settings.api.workers, queue=queue,
                          lease_s=self.settings.jobs.lease_s)

    def _parse_bytes(self, data: bytes, name: str,
                     on_page: Callable[[int, int], None] | None = None) -> Paper:
        return self.pdf_engine.parse(data, name, self.settings.ingest, on_page=on_page)

    async def close_loop_pools(self) -> None:
        """Close the connection pools the running event loop holds for the model gateway
        (the shared LLM limiters, on PostgreSQL). Call before the loop ends: one left open
        can keep ``asyncio.run`` from returning (``llm.shared_limiter``)."""
        shared = self.storage_backend.shared_limits
        if "gateway" in self.__dict__ and shared is not None:
            await shared.close()

    def close(self) -> None:
        """Close the database and forget everything built; later use builds afresh."""
        db = self.__dict__.get("db")
        leases = self.__dict__.get("job_leases")
        if leases is not None:
            leases.close(release=True)
        jobs = self.__dict__.get("job_store")
        if jobs is not None and hasattr(jobs, "close"):
            jobs.close()
        for name, value in vars(type(self)).items():
            if isinstance(value, cached_property):
                self.__dict__.pop(name, None)
        if db is not None:
            db.close()

    def __enter__(self) -> Container:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class _DeferredIndexer:
    """An Indexer that builds the container's search index on first use.

    The prepare hooks run outside the library's transaction, so the index (and its table
    migrations) is built there, never inside a transaction that might roll back.
    """

    def __init__(self, container: Container) -> None:
        self._container = container

    def prepare_paper(self, paper: Paper) -> None:
        self._container.search_index  # noqa: B018 - builds it outside the transaction

    def prepare_remove(self, paper_id: str) -> None:
        self._container.search_index  # noqa: B018 - builds it outside the transaction

    def index_paper(self, paper: Paper) -> None:
        """Chunk rows and BM25 only: embedding waits for ``embed_pending``."""
        self._container.search_index.index_paper(paper, embed=False)

    def embed_pending(self, paper_ids: Sequence[str] | None,
                      progress: EmbedProgress | None = None) -> int:
        return self._container.search_index.embed_pending(paper_ids, progress)

    def catch_up(self) -> None:
        """The library-wide search indexes and `list`'s counts in step now, on every core."""
        self._container.search_index.catch_up(threads=os.cpu_count() or 1)

    def coverage(self, paper_ids: Sequence[str]) -> dict[str, DenseCoverage]:
        """Dense coverage per paper, read without building the index or loading a model."""
        from papermind.library.coverage import dense_coverage, model_key

        search = self._container.settings.search
        return dense_coverage(self._container.db,
                              model_key(search.embedder, search.embedding_model), paper_ids)

    def remove_paper(self, paper_id: str) -> None:
        self._container.search_index.remove_paper(paper_id)
