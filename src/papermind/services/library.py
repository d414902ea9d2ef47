"""Library use cases: parse, add (files and folders), list, show, remove.

Adding a paper is one unit of work: parse, store row and original file, BM25-index. A failure
at any step leaves nothing behind; in a batch, the other files still go in. Embeddings come
after, in batches across papers (``Indexer.embed_pending``): each batch commits, so an
interrupted ``add`` rerun skips the stored files and embeds only what is still missing.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from papermind.disk_writes import storage_fault
from papermind.domain import Paper
from papermind.errors import IngestError, PapermindError, StorageError
from papermind.library.papers import PaperRecord, PaperRepository
from papermind.services.metrics import REGISTRY

if TYPE_CHECKING:
    from papermind.library.coverage import DenseCoverage

log = logging.getLogger(__name__)

SUPPORTED_SUFFIXES = (".pdf", ".txt", ".md")
"""What a folder is searched for (case-insensitive)."""

AddStatus = Literal["added", "exists", "failed"]
BytesParser = Callable[..., Paper]
"""``parse(data, file_name[, on_page=...]) -> Paper``; raises IngestError for bad input.
A parser that takes ``on_page(done, total)`` reports the pages it reads by OCR."""


class Indexer(Protocol):
    """Keeps a search index in step with the library (the search component provides it).

    An indexer may also define ``prepare_paper(paper)`` and ``prepare_remove(paper_id)``:
    they run before the add's or remove's transaction (e.g. to create the index's tables) so
    that the work done inside it, while the database's write lock is held, stays short and
    nothing built there can be rolled back under it. It may define
    ``embed_pending(paper_ids, progress) -> int`` (embed stored chunks that have no vector
    yet; None = every paper), ``catch_up()`` (bring derived search indexes in step after a
    bulk add) and ``coverage(paper_ids) -> dict[str, DenseCoverage]``.
    """

    def index_paper(self, paper: Paper) -> None:
        """Index a newly stored paper; raising undoes the whole add."""
        ...

    def remove_paper(self, paper_id: str) -> None:
        """Drop a paper from the index; raising undoes the whole remove."""
        ...


class Cataloguer(Protocol):
    """Records who a newly added paper is (DOI, arXiv id, title and first author)."""

    def catalog_paper(self, paper: Paper) -> str | None:
        """The id of the stored paper this one is a new version of, if any."""
        ...


@dataclass(frozen=True)
class AddResult:
    """The outcome for one file of an ``add``."""

    path: str
    status: AddStatus
    paper_id: str | None = None
    title: str = ""
    reason: str = ""
    version_of: str | None = None
    seconds: float = field(default=0.0, compare=False)
    """Time spent on this file (read, parse, store, BM25 index)."""


AddStage = Literal["start", "parsing", "ocr", "file", "embedding", "indexing"]


@dataclass(frozen=True)
class AddEvent:
    """Progress of an ``add``: ``start`` (``total`` files), ``parsing`` (``path``, before it
    is read), ``ocr`` (``done`` of ``total`` scanned pages of ``path`` read), ``file`` (its ``result``; ``done`` of ``total`` files finished) and
    ``embedding`` (``done`` of ``total`` pending chunk texts embedded) and ``indexing`` (the
    library-wide search indexes brought in step, before the next search would)."""

    stage: AddStage
    done: int
    total: int
    path: str = ""
    result: AddResult | None = None


@dataclass(frozen=True)
class StoredPaper:
    """A stored paper: library record and full parse."""

    record: PaperRecord
    paper: Paper


ProgressHook = Callable[[AddEvent], None]
"""Called with each AddEvent of an ``add``, in order."""
StageHook = Callable[[str, int, int], None]
"""``on_stage(stage, done, total)`` as one file's add goes through parse, index, embed."""


class FileParser:
    """Reads a file (within a size limit) and parses it into a Paper; stores nothing."""

    def __init__(self, parse: BytesParser, *, max_file_bytes: int | None = None) -> None:
        self._parse = parse
        self._pages_heard = "on_page" in inspect.signature(parse).parameters  # OCR progress
        self.max_file_bytes = max_file_bytes

    def parse(self, path: Path) -> Paper:
        return self.parse_bytes(self.read(path), path.name)

    def parse_bytes(self, data: bytes, name: str, *,
                    on_page: Callable[[int, int], None] | None = None) -> Paper:
        """The parsed paper; IngestError for bad input and for parser crashes alike.
        ``on_page(done, total)`` hears each page read by OCR."""
        self._check_size(len(data), name)
        try:
            if on_page is not None and self._pages_heard:
                return self._parse(data, name, on_page=on_page)
            return self._parse(data, name)
        except PapermindError:
            raise
        except Exception as err:  # the message stays free of internals; the log has them
            log.warning("parser crashed on %s", name, exc_info=True)
            raise IngestError(f"{name} could not be read (the parser failed on it; the log "
                              "has details)") from err

    def read(self, path: Path) -> bytes:
        problem = not_a_file(path)
        if problem:
            raise IngestError(f"{path}: {problem}")
        self._check_size(path.stat().st_size, str(path))
        try:
            return path.read_bytes()
        except OSError as err:
            raise IngestError(f"{path}: cannot read ({err.strerror or err})") from err

    def _check_size(self, size: int, name: str) -> None:
        if self.max_file_bytes is not None and size > self.max_file_bytes:
            raise IngestError(f"{name}: file too large ({size / 2**20:.1f} MiB, limit "
                              f"{self.max_file_bytes / 2**20:.1f} MiB)")


class LibraryService:
    """Use cases over the paper repository, with an optional search indexer."""

    def __init__(self, papers: PaperRepository, parser: FileParser, *,
                 indexer: Indexer | None = None, catalog: Cataloguer | None = None) -> None:
        self.papers = papers
        self.parser = parser
        self.indexer = indexer
        self.catalog = catalog

    def parse(self, path: Path) -> Paper:
        """Parse one file without storing it."""
        return self.parser.parse(path)

    def add(self, paths: Sequence[Path], *,
            on_event: ProgressHook | None = None) -> list[AddResult]:
        """Add files and folders (searched recursively); one result per file, in order.

        Every file is parsed, stored and BM25-indexed first; then the chunks still without a
        vector (of these files, or left over by an interrupted earlier add) are embedded.
        """
        emit = on_event or (lambda event: None)
        files, results = collect_files(paths)
        total = len(files) + len(results)
        emit(AddEvent("start", 0, total))
        for done, failure in enumerate(results, start=1):
            emit(AddEvent("file", done, total, failure.path, failure))
        for path in files:
            emit(AddEvent("parsing", len(results), total, str(path)))
            result = self.add_file(path, embed=False, on_stage=_ocr_events(emit, str(path)))
            results.append(result)
            emit(AddEvent("file", len(results), total, result.path, result))
        embedded = self.embed_pending(None,
                                      lambda done, todo: emit(AddEvent("embedding", done, todo)))
        if embedded or any(r.status == "added" for r in results):  # or a resumed add's vectors
            self.catch_up(emit)
        return results

    def catch_up(self, on_event: ProgressHook | None = None) -> None:
        """Bring the library-wide search indexes in step after a bulk add, so that the
        next search (here or in a new process) does not build them."""
        catch_up = getattr(self.indexer, "catch_up", None)
        if callable(catch_up):
            emit = on_event or (lambda event: None)
            emit(AddEvent("indexing", 0, 1))
            catch_up()
            emit(AddEvent("indexing", 1, 1))

    def embed_pending(self, paper_ids: Sequence[str] | None = None,
                      progress: Callable[[int, int], None] | None = None) -> int:
        """Give dense vectors to stored chunks that have none (None = every paper)."""
        embed = getattr(self.indexer, "embed_pending", None)
        return int(embed(paper_ids, progress)) if callable(embed) else 0

    def add_file(self, path: Path, *, embed: bool = True,
                 on_stage: StageHook | None = None) -> AddResult:
        """Parse, store and index one file; failures come back as a ``failed`` result."""
        started = time.perf_counter()
        try:
            data = self.parser.read(path)
        except PapermindError as err:
            REGISTRY.refused(str(err))
            return AddResult(str(path), "failed", reason=str(err),
                             seconds=time.perf_counter() - started)
        result = self.add_bytes(data, path.name, shown=str(path), embed=embed, on_stage=on_stage)
        return _timed(result, started)

    def add_bytes(self, data: bytes, name: str, *, shown: str | None = None,
                  embed: bool = True, on_stage: StageHook | None = None) -> AddResult:
        """Add an in-memory file (e.g. an upload) named ``name``; same rules as a file.
        ``embed=False`` leaves its dense vectors to a later ``embed_pending``; ``on_stage``
        hears 'parse', 'ocr' (scanned pages done and to do), 'index' and 'embed' (with chunks
        done and to do) as they start."""
        stage = on_stage or (lambda name, done, total: None)
        result = self._add_bytes(data, name, shown or name, stage)
        if embed and result.status == "added" and result.paper_id:
            stage("embed", 0, 0)
            try:
                self.embed_pending([result.paper_id],
                                   lambda done, total: stage("embed", done, total))
            except Exception as err:  # stored and BM25-searchable; dense waits for the next add
                _raise_storage_fault(err)
                log.warning("embedding %s failed; its dense vectors stay pending", result.path,
                            exc_info=True)
        return result

    def _add_bytes(self, data: bytes, name: str, shown: str, stage: StageHook) -> AddResult:
        try:
            digest = hashlib.sha256(data).hexdigest()
            if self.papers.exists(digest):
                return AddResult(shown, "exists", digest, self.papers.record(digest).title)
            stage("parse", 0, 1)
            paper = self.parser.parse_bytes(
                data, name, on_page=lambda done, total: stage("ocr", done, total))
            stage("index", 0, 1)
            status = self._store(paper, data)
        except StorageError:
            raise  # the disk, not the file: the batch cannot go on either
        except PapermindError as err:
            REGISTRY.refused(str(err))
            return AddResult(shown, "failed", reason=str(err))
        except Exception as err:  # one broken file must not stop a batch: report it, without internals
            _raise_storage_fault(err)
            log.warning("adding %s failed unexpectedly", shown, exc_info=True)
            return AddResult(shown, "failed", reason=f"{name} could not be added (an unexpected "
                             "error; the log has details)")
        version_of = self._catalog(paper) if status == "added" else None
        return AddResult(shown, status, paper.id, paper.title, version_of=version_of)

    def _catalog(self, paper: Paper) -> str | None:
        """Catalog a stored paper; a failure here never undoes the add (backfill retries)."""
        if self.catalog is None:
            return None
        try:
            return self.catalog.catalog_paper(paper)
        except Exception:
            log.warning("cataloguing %s failed; it is retried on next use", paper.id, exc_info=True)
            return None

    def _store(self, paper: Paper, data: bytes) -> Literal["added", "exists"]:
        if self.indexer is None:
            return self.papers.add(paper, data)
        prepare = getattr(self.indexer, "prepare_paper", None)
        if callable(prepare) and not self.papers.exists(paper.id):
            prepare(paper)
        return self.papers.add(paper, data, on_stored=self.indexer.index_paper)

    def list(self, *, limit: int | None = None, offset: int = 0) -> list[PaperRecord]:
        """Stored papers, newest first (``offset``: skip that many)."""
        return self.papers.list(limit=limit, offset=offset)

    def count(self) -> int:
        return self.papers.count()

    def titles(self, paper_ids: Iterable[str]) -> dict[str, str]:
        """Title (else file name) of each of these papers that is stored."""
        out: dict[str, str] = {}
        for paper_id in dict.fromkeys(paper_ids):
            if self.papers.exists(paper_id):
                record = self.papers.record(paper_id)
                out[paper_id] = record.title or record.source_name
        return out

    def coverage(self, paper_ids: Sequence[str]) -> dict[str, DenseCoverage]:
        """How far dense search covers each paper (empty when the indexer cannot tell)."""
        coverage = getattr(self.indexer, "coverage", None)
        return dict(coverage(paper_ids)) if callable(coverage) else {}

    def show(self, id_or_prefix: str) -> StoredPaper:
        paper_id = self.papers.resolve(id_or_prefix)
        return StoredPaper(self.papers.record(paper_id), self.papers.get(paper_id))

    def get(self, paper_id: str) -> Paper:
        """The stored Paper by full id (satisfies workflows' PaperSource)."""
        return self.papers.get(paper_id)

    def remove(self, id_or_prefix: str) -> PaperRecord:
        """Delete a paper: row, original file and index entries, all or nothing."""
        paper_id = self.papers.resolve(id_or_prefix)
        if self.indexer is None:
            return self.papers.remove(paper_id)
        prepare = getattr(self.indexer, "prepare_remove", None)
        if callable(prepare):
            prepare(paper_id)
        return self.papers.remove(paper_id, on_removed=self.indexer.remove_paper)


def _raise_storage_fault(err: Exception) -> None:
    """Re-raise ``err`` when it is a full disk or a failing device (not the file's fault): the
    edge (CLI, API) names the cause and the place."""
    if storage_fault(err) is not None:
        raise err


def not_a_file(path: Path | str) -> str | None:
    """Why ``path`` cannot be read as a document (missing, a folder, a FIFO, a device),
    or None for a regular file. Never opens it: a FIFO would block the reader."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as err:
        return f"cannot read ({err.strerror or err})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file (`papermind add` takes folders)"
    kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"is {kind}, not a regular file"


def _ocr_events(emit: ProgressHook, path: str) -> StageHook:
    """A file's stage hook that passes its OCR progress on as ``ocr`` events."""
    def on_stage(stage: str, done: int, total: int) -> None:
        if stage == "ocr":
            emit(AddEvent("ocr", done, total, path))
    return on_stage


def _timed(result: AddResult, started: float) -> AddResult:
    return replace(result, seconds=time.perf_counter() - started)


def collect_files(paths: Iterable[Path]) -> tuple[list[Path], list[AddResult]]:
    """Files to add (folders expanded, duplicates dropped) and failures for unusable paths."""
    files: list[Path] = []
    failures: list[AddResult] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = _folder_files(path)
            if not found:
                failures.append(AddResult(str(path), "failed", reason=(
                    f"no {', '.join(SUPPORTED_SUFFIXES)} files in this folder")))
        elif path.exists():
            found = [path]
        else:
            failures.append(AddResult(str(path), "failed", reason="no such file or folder"))
            continue
        for file in found:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                files.append(file)
    return files, failures


def _folder_files(folder: Path) -> list[Path]:
    """Supported files under ``folder``, recursively, hidden entries skipped, sorted."""
    found: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted((d for d in dirs if not d.startswith(".")), key=_natural)
        found.extend(Path(root) / name for name in sorted(names, key=_natural)
                     if not name.startswith(".") and name.lower().endswith(SUPPORTED_SUFFIXES))
    return found


def _natural(name: str) -> list[tuple[int, int | str]]:
    """Sort key that puts 'p2' before 'p10'."""
    return [(0, int(part)) if part.isdigit() else (1, part.lower())
            for part in re.split(r"(\d+)", name) if part]
