"""Import a reference manager's library: Zotero data directories and BibTeX files.

Each item with a PDF is added like any file (same parse, same checks), then given the
item's metadata (title, authors, year, venue, DOI, arXiv id), tags and collections, and
keeps the source's key. Items without a PDF are reported as ``skipped``; unreadable ones as
``failed`` with the reason (and the line, for BibTeX). Attachments are taken only from the
folders the user pointed at (Zotero's ``storage/`` and linked-file base folder; the .bib
file's folder, JabRef's ``fileDirectory`` and the user's home, where JabRef and Better BibTeX
write absolute paths) unless outside paths are allowed, and only when they really are PDFs.
An item's attachments are tried in order; a URL is passed over with a reason (nothing is
fetched). Finished items are logged, so running the same import again adds nothing and an
interrupted one resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from papermind.domain.works import ImportedItem, ImportProblem, WorkMetadata
from papermind.errors import InputError
from papermind.ingest.identifiers import normalize_arxiv, normalize_doi
from papermind.interchange.attachment_gate import refusal
from papermind.interchange.bibtex import URL, read_bibtex
from papermind.interchange.zotero import read_zotero
from papermind.interchange.zotero_prefs import base_folder
from papermind.library.import_log import ImportLog
from papermind.services.catalog import CatalogService
from papermind.services.library import LibraryService, not_a_file

ImportStatus = Literal["added", "exists", "skipped", "failed"]
SOURCES = ("zotero", "bibtex")
DEFAULT_ZOTERO_DIR = Path("~/Zotero")


@dataclass(frozen=True)
class ImportResult:
    """The outcome for one item of an import."""

    key: str
    status: ImportStatus
    paper_id: str | None = None
    title: str = ""
    reason: str = ""
    line: int | None = None
    file: str = ""
    version_of: str | None = None


ImportProgress = Callable[[int, int, ImportResult], None]


@dataclass(frozen=True)
class ImportSource:
    """What was read from a source, and the folders its attachments may come from."""

    items: list[ImportedItem]
    problems: list[ImportProblem]
    origin: str
    roots: tuple[Path, ...]
    allow_outside: bool = False


class ImportService:
    """Brings items of Zotero and BibTeX libraries into the PaperMind library."""

    def __init__(self, library: LibraryService, catalog: CatalogService, log: ImportLog, *,
                 zotero_base_dir: Path | None = None, zotero_prefs: Path | None = None) -> None:
        self.library = library
        self.catalog = catalog
        self.log = log
        self.zotero_base_dir = zotero_base_dir
        self.zotero_prefs = zotero_prefs

    def import_source(self, source: str, path: Path | None, *, allow_outside: bool = False,
                      on_item: ImportProgress | None = None) -> list[ImportResult]:
        """Read ``path`` as ``source`` ('zotero' or 'bibtex') and import every item
        (attachments outside the source's folders only with ``allow_outside``)."""
        read = self._read(source, path, allow_outside)
        results = [_problem(p) for p in read.problems]
        total = len(read.items) + len(results)
        for item in read.items:
            results.append(self.import_item(item, read))
            if on_item is not None:
                on_item(len(results), total, results[-1])
        if any(r.status == "added" for r in results):
            self.library.catch_up()
        return sorted(results, key=lambda r: (r.line is None, r.line or 0)) \
            if source == "bibtex" else results

    def import_item(self, item: ImportedItem, read: ImportSource) -> ImportResult:
        """Add one item's PDF and give the paper the item's metadata, tags and collections."""
        base = ImportResult(item.key, "failed", title=item.metadata.title, line=item.line,
                            reason="; ".join(item.notes))
        done = self.log.done(item.source, read.origin, item.key)
        if done is not None:
            return _replace(base, status="exists", paper_id=done, reason="imported before")
        if not item.files:
            return _replace(base, status="skipped", reason="no PDF attachment")
        chosen, passed = _first_attachment(item.files, read)
        if chosen is None:
            only_urls = all(URL.match(f) for f in item.files)
            return _replace(base, status="skipped" if only_urls else "failed",
                            reason="; ".join(passed), file=item.files[0])
        added = self.library.add_file(chosen)
        if added.status == "failed" or added.paper_id is None:
            return _replace(base, reason=added.reason, file=str(chosen))
        version_of = self.apply(item, added.paper_id) or added.version_of
        self.log.mark(item.source, read.origin, item.key, added.paper_id)
        return _replace(base, status=added.status, paper_id=added.paper_id, file=str(chosen),
                        version_of=version_of, reason="; ".join([*item.notes, *passed]))

    def apply(self, item: ImportedItem, paper_id: str) -> str | None:
        """The item's metadata, tags and collections on the stored paper (idempotent)."""
        parsed = self.catalog.entry(paper_id).metadata
        metadata = _merged(item.metadata, parsed)
        version_of = self.catalog.catalog.record(paper_id, metadata, source=item.source,
                                                 source_key=item.key)
        before = self.catalog.papers.record(paper_id)
        updated = self.catalog.papers.update_metadata(
            paper_id, title=metadata.title, authors=[p.display() for p in metadata.authors],
            year=metadata.year, doi=metadata.doi, arxiv=metadata.arxiv)
        indexer = self.library.indexer
        if indexer is not None and (before.year, before.title) != (updated.year, updated.title):
            indexer.index_paper(updated)  # search filters by year: the chunks carry it
        self.catalog.labels.add([paper_id], "tag", item.tags)
        self.catalog.labels.add([paper_id], "collection", item.collections)
        return version_of

    def _read(self, source: str, path: Path | None, allow_outside: bool) -> ImportSource:
        if source == "zotero":
            folder = (path or DEFAULT_ZOTERO_DIR).expanduser()
            base = self.zotero_base_dir or base_folder(folder, self.zotero_prefs)
            library = read_zotero(folder, base_dir=base)
            roots = (folder / "storage",) + ((base.expanduser(),) if base else ())
            return ImportSource(library.items, library.problems, str(folder.resolve()), roots,
                                allow_outside)
        if source == "bibtex":
            if path is None:
                raise InputError("give the .bib file: `papermind import bibtex FILE.bib`")
            if not path.is_file():
                raise InputError(f"{path}: no such file")
            text = path.read_text(encoding="utf-8", errors="replace")
            parsed = read_bibtex(text, base_dir=path.resolve().parent)
            roots = (path.resolve().parent, *parsed.file_dirs, Path.home())
            return ImportSource(parsed.items, parsed.problems, str(path.resolve()), roots,
                                allow_outside)
        raise InputError(f"unknown import source {source!r} (use {' or '.join(SOURCES)})")


def _first_attachment(files: list[str], read: ImportSource) -> tuple[Path | None, list[str]]:
    """The first attachment that may be imported, in the item's order, and why each one
    before it was passed over (a URL is not fetched; a missing, outside or non-PDF file)."""
    passed: list[str] = []
    for name in files:
        if URL.match(name):
            passed.append(f"URL attachment not fetched: {name}")
            continue
        if not Path(name).is_file():
            problem = not_a_file(name)
            passed.append(f"PDF not found: {name}" if problem in (None, "no such file")
                          else f"the PDF attachment {name} {problem}")
            continue
        refused = refusal(Path(name), read.roots, allow_outside=read.allow_outside)
        if refused is None:
            return Path(name), passed
        passed.append(refused)
    return None, passed


def _merged(imported: WorkMetadata, parsed: WorkMetadata) -> WorkMetadata:
    """The reference manager's metadata, normalised, with parsed values filling its gaps."""
    return imported.model_copy(update={
        "title": imported.title or parsed.title,
        "authors": imported.authors or parsed.authors,
        "year": imported.year or parsed.year,
        "doi": normalize_doi(imported.doi) or parsed.doi,
        "arxiv": normalize_arxiv(imported.arxiv) or parsed.arxiv or (
            normalize_arxiv(imported.url) if "arxiv.org" in (imported.url or "") else None),
        "abstract": imported.abstract or parsed.abstract,
    })


def _problem(problem: ImportProblem) -> ImportResult:
    return ImportResult(problem.key, "failed", reason=problem.reason, line=problem.line)


def _replace(result: ImportResult, **changes: object) -> ImportResult:
    return replace(result, **changes)  # type: ignore[arg-type]
