"""Export the library (or a selection) as BibTeX, CSL-JSON or RIS; a report's cited works.

The formats are one table, ``services.export_formats.EXPORT_FORMATS``.

Each paper is exported from its catalog metadata (the reference manager's when imported,
else what ingestion parsed) under its source key when it has one, else a generated
'surnameYEARword' key, made unique. For a report, the works it cites are the bibliography
entries grounding resolved (``resolved_entry_keys``); their BibTeX is built from the parsed
entries of the reviewed paper.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from papermind.domain import Paper, Reference
from papermind.domain.works import Person, WorkMetadata
from papermind.ingest.identifiers import normalize_arxiv, normalize_doi
from papermind.reports.json_walk import json_objects
from papermind.services.catalog import CatalogService
from papermind.services.export_formats import ExportFormat, KeyedWork, export_format

_STOP = {"a", "an", "the", "on", "of", "in", "for", "and", "to", "with", "from", "towards"}


@dataclass(frozen=True)
class Export:
    """Works written in one format."""

    format: ExportFormat
    works: list[KeyedWork]
    text: str

    @property
    def filename(self) -> str:
        return f"papermind{self.format.suffix}"


class ExportService:
    """Bibliographic exports of stored papers."""

    def __init__(self, catalog: CatalogService) -> None:
        self.catalog = catalog

    def works(self, paper_ids: Sequence[str] | None = None) -> list[KeyedWork]:
        """``(key, metadata)`` of the given papers, or of every default version in the library."""
        if paper_ids is None:
            superseded = self.catalog.superseded()
            paper_ids = [r.id for r in self.catalog.papers.list() if r.id not in superseded]
        used: set[str] = set()
        out = []
        for paper_id in paper_ids:
            entry = self.catalog.entry(paper_id)
            out.append((unique_key(entry.source_key or citation_key(entry.metadata), used),
                        entry.metadata))
        return out

    def export(self, fmt: str, *, papers: Sequence[str] = (), tags: Sequence[str] = (),
               collections: Sequence[str] = ()) -> Export:
        """The selected papers (every default version when nothing is selected) in ``fmt``."""
        form = export_format(fmt)
        works = self.works(self.catalog.select(papers=papers, tags=tags,
                                               collections=collections))
        return Export(form, works, form.write(works))


def render(works: Iterable[KeyedWork], fmt: str) -> str:
    """The works in format ``fmt``, as text (InputError for an unknown format)."""
    return export_format(fmt).write(list(works))


def resolved_entry_keys(report: Any) -> list[str]:
    """Bibliography keys of every cited work grounding resolved, anywhere in a report's JSON.

    A resolved reference is an object with ``resolved`` (or ``verified``) true and the entry's
    key as ``entry_key`` or ``reference.key``; the report's layout around them is not assumed.
    """
    keys: list[str] = []
    for node in json_objects(report):
        key = node.get("entry_key")
        if key is None and isinstance(node.get("reference"), dict):
            key = node["reference"].get("key")
        if key and (node.get("resolved") is True or node.get("verified") is True):
            keys.append(str(key))
    return list(dict.fromkeys(keys))


def cited_works(report: Any, paper: Paper) -> list[KeyedWork]:
    """The reviewed paper's bibliography entries that ``report`` cites (resolved ones only)."""
    by_key = {ref.key: ref for ref in paper.references}
    used: set[str] = set()
    out = []
    for key in resolved_entry_keys(report):
        if (ref := by_key.get(key)) is not None:
            meta = reference_metadata(ref)
            out.append((unique_key(citation_key(meta), used), meta))
    return out


def reference_metadata(ref: Reference) -> WorkMetadata:
    """A parsed bibliography entry as work metadata (the entry as printed kept as a note)."""
    arxiv = normalize_arxiv(ref.arxiv)
    kind = "misc" if arxiv or not ref.venue else "article"
    return WorkMetadata(entry_type=kind, title=ref.title or ref.raw,
                        authors=[Person.from_display(a) for a in ref.authors if a.strip()],
                        year=ref.year, venue=ref.venue, doi=normalize_doi(ref.doi), arxiv=arxiv,
                        extra={"note": ref.raw})


def citation_key(metadata: WorkMetadata) -> str:
    """'vaswani2017attention': first author's surname, year, first significant title word."""
    words = [w for w in _ascii(metadata.title).split()
             if w not in _STOP and sum(ch.isalpha() for ch in w) >= 2]
    key = f"{_ascii(metadata.first_author).replace(' ', '')}{metadata.year or ''}" \
          f"{words[0] if words else ''}"
    return key if key[:1].isalpha() else f"paper{key}"


def unique_key(key: str, used: set[str]) -> str:
    """``key``, or ``key`` + 'a', 'b'... when already used; remembers it."""
    candidate, n = key, 0
    while candidate in used:
        candidate = f"{key}{chr(ord('a') + n % 26)}{n // 26 or ''}"
        n += 1
    used.add(candidate)
    return candidate


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())
