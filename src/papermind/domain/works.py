"""Bibliographic metadata of a work, as reference managers (Zotero, BibTeX) know it.

A stored paper carries one ``WorkMetadata``: imported from a reference manager when it came
from one (with the source's citation key), else built from what ingestion parsed. Exports
(BibTeX, CSL-JSON, RIS) are written from it.
"""

from __future__ import annotations

from pydantic import Field

from papermind.domain.base import Frozen


class Person(Frozen):
    """An author's name in two parts (``family`` alone for institutions or single names)."""

    family: str
    given: str = ""

    @classmethod
    def from_display(cls, name: str) -> Person:
        """'Ada M. Lovelace' -> family 'Lovelace', given 'Ada M.'; 'Lovelace, Ada' as well."""
        name = " ".join(name.split())
        if "," in name:
            family, _, given = name.partition(",")
            return cls(family=family.strip(), given=given.strip())
        given, _, family = name.rpartition(" ")
        return cls(family=family, given=given)

    def display(self) -> str:
        """'Ada M. Lovelace'."""
        return f"{self.given} {self.family}".strip()


class WorkMetadata(Frozen):
    """What a bibliography entry says about a work."""

    entry_type: str = Field(default="misc", description="BibTeX entry type, e.g. 'article'")
    title: str = ""
    authors: list[Person] = Field(default_factory=list)
    year: int | None = None
    venue: str | None = Field(default=None, description="journal, proceedings or series")
    doi: str | None = Field(default=None, description="normalised: lower case, no resolver")
    arxiv: str | None = Field(default=None, description="arXiv id without version")
    url: str | None = None
    abstract: str | None = None
    extra: dict[str, str] = Field(
        default_factory=dict, description="other fields kept as given (volume, pages, publisher...)")

    @property
    def first_author(self) -> str:
        return self.authors[0].family if self.authors else ""


class ImportedItem(Frozen):
    """One item of a reference manager's library, as read from its files."""

    source: str = Field(description="'zotero' or 'bibtex'")
    key: str = Field(description="the source's own key (Zotero item key, BibTeX citation key)")
    metadata: WorkMetadata = Field(default_factory=WorkMetadata)
    files: list[str] = Field(default_factory=list, description="paths of its PDF attachments")
    tags: list[str] = Field(default_factory=list)
    collections: list[str] = Field(default_factory=list, description="'Parent/Child' paths")
    line: int | None = Field(default=None, description="1-based line in the source file, if any")
    notes: list[str] = Field(default_factory=list,
                             description="what reading changed, e.g. an over-long title cut")


class ImportProblem(Frozen):
    """An item (or a part of the source) that could not be read at all."""

    key: str
    reason: str
    line: int | None = None
