"""Catalog use cases: a paper's work metadata and versions, tags and collections, filters.

Every stored paper gets a catalog row when it is added (``catalog_paper``, from its parse) or,
for papers stored before the catalog existed, on first use (``backfill``). Imports replace
that row's metadata with the reference manager's (``services/imports.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from papermind.domain import Paper
from papermind.domain.works import Person, WorkMetadata
from papermind.errors import InputError
from papermind.library.catalog import Catalog, CatalogEntry
from papermind.library.labels import LabelKind, LabelStore
from papermind.library.papers import PaperRepository


def parsed_metadata(paper: Paper) -> WorkMetadata:
    """What ingestion found, as work metadata (an arXiv paper is a 'misc' with an eprint)."""
    return WorkMetadata(entry_type="misc", title=paper.title,
                        authors=[Person.from_display(a) for a in paper.authors if a.strip()],
                        year=paper.year, doi=paper.doi, arxiv=paper.arxiv,
                        abstract=paper.abstract or None)


@dataclass(frozen=True)
class LabelChange:
    """The outcome of a ``tag`` or ``collection`` command."""

    kind: LabelKind
    names: list[str]
    paper_ids: list[str]
    changed: int


class CatalogService:
    """Work metadata, versions and labels of the library's papers."""

    def __init__(self, papers: PaperRepository, catalog: Catalog, labels: LabelStore) -> None:
        self.papers = papers
        self.catalog = catalog
        self.labels = labels

    def catalog_paper(self, paper: Paper) -> str | None:
        """Record a newly added paper; the id of the stored paper it is a new version of."""
        return self.catalog.record(paper.id, parsed_metadata(paper))

    def backfill(self) -> int:
        """Catalog rows for papers stored before the catalog existed; how many were added."""
        missing = self.catalog.unrecorded()
        for paper_id in missing:
            self.catalog_paper(self.papers.get(paper_id))
        return len(missing)

    def entry(self, paper_id: str) -> CatalogEntry:
        """The catalog row of a stored paper (made now if it has none)."""
        entry = self.catalog.get(paper_id)
        if entry is None:
            self.catalog_paper(self.papers.get(paper_id))
            entry = self.catalog.get(paper_id)
        assert entry is not None
        return entry

    def versions(self, paper_id: str) -> list[str]:
        """Every stored version of the paper's work, the default (newest) first."""
        return self.catalog.versions(paper_id)

    def superseded(self) -> set[str]:
        self.backfill()
        return self.catalog.superseded()

    def label(self, kind: LabelKind, names: Sequence[str], papers: Sequence[str], *,
              remove: bool = False) -> LabelChange:
        """Add (or remove) tags or collection memberships on papers given by id or prefix."""
        cleaned = [n for n in (" ".join(x.split()) for x in names) if n]
        if not cleaned:
            raise InputError(f"give at least one {kind} name")
        ids = list(dict.fromkeys(self.papers.resolve(p) for p in papers))
        action = self.labels.remove if remove else self.labels.add
        return LabelChange(kind, cleaned, ids, action(ids, kind, cleaned))

    def names(self, kind: LabelKind) -> list[tuple[str, int]]:
        return self.labels.names(kind)

    def labels_of(self, paper_id: str) -> dict[str, list[str]]:
        return {"tags": self.labels.of(paper_id, "tag"),
                "collections": self.labels.of(paper_id, "collection")}

    def select(self, *, papers: Sequence[str] = (), tags: Sequence[str] = (),
               collections: Sequence[str] = ()) -> list[str] | None:
        """Paper ids for a --paper/--tag/--collection filter (None: every paper; a library
        search then hides older versions itself, ``SearchService.search``).

        Ids and prefixes are resolved; tags and collections narrow (all must hold). A filter
        that matches no paper is an error rather than a silent search of everything.
        """
        if not (papers or tags or collections):
            return None
        ids = [self.papers.resolve(p) for p in papers]
        if tags or collections:
            labelled = self.labels.papers(tags=tags, collections=collections)
            ids = [i for i in ids if i in labelled] if papers else sorted(labelled)
            if not ids:
                wanted = [*(f"tag {t!r}" for t in tags), *(f"collection {c!r}" for c in collections)]
                raise InputError(f"no paper matches {' and '.join(wanted)}"
                                 + (" among the papers given" if papers else ""),
                                 hint="see `papermind tag --list` / `papermind collection --list`")
        return list(dict.fromkeys(ids))
