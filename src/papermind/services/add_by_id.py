"""Add a paper by identifier: ``doi:10.../...``, ``arxiv:2401.01234`` or a URL.

The metadata comes from the scholarly sources, the PDF from arXiv or an open-access location
they name; then the paper is added as usual and given that metadata (as an import would).
Without a PDF nothing is stored. Every URL (the one given, the locations the sources name,
each redirect) must point at a public address unless ``scholar.allow_hosts`` names its host
(``scholar.address_guard``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from papermind.domain.scholar import FoundWork
from papermind.domain.works import ImportedItem, Person, WorkMetadata
from papermind.errors import InputError, NotFoundError
from papermind.scholar.http import SourceHttp
from papermind.scholar.source import clean_arxiv, clean_doi
from papermind.services.library import AddResult
from papermind.services.scholar import ScholarSources, build_sources, require_online

if TYPE_CHECKING:
    from papermind.config import Settings
    from papermind.scholar.cache import ScholarCache
    from papermind.services.imports import ImportService
    from papermind.services.library import LibraryService

IdKind = Literal["doi", "arxiv", "url"]
_ENTRY_TYPES = {"journal-article": "article", "article": "article",
                "proceedings-article": "inproceedings", "preprint": "misc"}


@dataclass(frozen=True)
class Identifier:
    kind: IdKind
    value: str

    def shown(self) -> str:
        return self.value if self.kind == "url" else f"{self.kind}:{self.value}"


def parse_identifier(text: str) -> Identifier | None:
    """``doi:...``, ``arxiv:...`` or an http(s) URL (arXiv and doi.org URLs read as ids);
    None for anything else (a file path). InputError for a malformed id."""
    raw = text.strip()
    low = raw.lower()
    if low.startswith("doi:"):
        doi = clean_doi(raw[4:])
        if doi is None:
            raise InputError(f"{text!r} is not a DOI", hint="e.g. doi:10.1162/neco.1997.9.8.1735")
        return Identifier("doi", doi)
    if low.startswith("arxiv:"):
        arxiv = clean_arxiv(raw[6:])
        if arxiv is None:
            raise InputError(f"{text!r} is not an arXiv id", hint="e.g. arxiv:2401.01234")
        return Identifier("arxiv", arxiv)
    if low.startswith(("http://", "https://")):
        if "arxiv.org/" in low and (arxiv := clean_arxiv(raw)):
            return Identifier("arxiv", arxiv)
        if "doi.org/10." in low and (doi := clean_doi(raw)):
            return Identifier("doi", doi)
        return Identifier("url", raw)
    return None


class AddByIdService:
    """Fetches metadata and an open-access PDF, then adds the paper like a file."""

    def __init__(self, settings: Settings, cache: ScholarCache, library: LibraryService,
                 imports: ImportService) -> None:
        self.settings = settings
        self.cache = cache
        self.library = library
        self.imports = imports

    def add(self, identifier: Identifier, *, online: bool = False) -> AddResult:
        require_online(self.settings.scholar, online)
        sources = build_sources(self.settings.scholar, self.cache)
        try:
            work, pdf = self._fetch(identifier, sources)
        finally:
            sources.close()
        name = f"{(work.arxiv or work.doi or 'paper').replace('/', '_')}.pdf" if work else "paper.pdf"
        result = self.library.add_bytes(pdf, name, shown=identifier.shown())
        if work is not None and result.paper_id and result.status != "failed":
            item = ImportedItem(source=work.source, key=identifier.shown(), metadata=metadata(work))
            version_of = self.imports.apply(item, result.paper_id)
            result = replace(result, title=work.title or result.title,
                             version_of=version_of or result.version_of)
        return result

    def _fetch(self, ident: Identifier, sources: ScholarSources) -> tuple[FoundWork | None, bytes]:
        if ident.kind == "url":
            sources.files.guard.check(ident.value)  # a clear refusal; nothing is sent
            return None, self._download([ident.value], sources.files, ident)
        if ident.kind == "doi" and ident.value.startswith("10.48550/arxiv."):
            ident = Identifier("arxiv", ident.value.removeprefix("10.48550/arxiv."))
        if ident.kind == "arxiv":
            work = sources.arxiv.lookup("arxiv", ident.value)
            if work is None:
                raise NotFoundError(f"arXiv has no paper {ident.value}")
            return work, self._download(sources.arxiv.pdf_urls(work), sources.files, ident)
        found = [w for w in (sources.openalex.lookup("doi", ident.value),
                             sources.crossref.lookup("doi", ident.value)) if w is not None]
        if not found:
            raise NotFoundError(f"no work with DOI {ident.value} in OpenAlex or Crossref")
        urls = [w.pdf_url for w in found if w.pdf_url]
        arxiv = next((w.arxiv for w in found if w.arxiv), None)
        if arxiv:
            urls += sources.arxiv.pdf_urls(FoundWork(source="arxiv", id=arxiv, arxiv=arxiv))
        return found[0], self._download(urls, sources.files, ident)

    def _download(self, urls: list[str], http: SourceHttp, ident: Identifier) -> bytes:
        limit = int(self.settings.ingest.max_file_mb * 2**20)
        for url in dict.fromkeys(urls):
            data = http.fetch_bytes(url, max_bytes=limit)
            if data is not None and data.startswith(b"%PDF"):
                return data
        raise InputError(f"no open-access PDF found for {ident.shown()}: nothing was stored",
                         hint="download the PDF yourself and `papermind add FILE`")


def metadata(work: FoundWork) -> WorkMetadata:
    """What a source says about a work, as the catalog's metadata."""
    return WorkMetadata(entry_type=_ENTRY_TYPES.get((work.kind or "").lower(), "misc"),
                        title=work.title, authors=[Person.from_display(a) for a in work.authors
                                                   if a.strip()],
                        year=work.year, venue=None if work.is_preprint else work.venue,
                        doi=work.doi, arxiv=work.arxiv, url=work.url, abstract=work.abstract)
