"""The one contract every scholarly source adapter keeps."""

from __future__ import annotations

import re
import unicodedata
from typing import Literal, Protocol
from urllib.parse import quote

from papermind.domain.scholar import FoundWork

IdKind = Literal["doi", "arxiv"]

_DOI = re.compile(r"10\.\d{4,9}/\S+", re.IGNORECASE)
_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]+>")


class ScholarSource(Protocol):
    """A scholarly source: lookups by identifier and a title / free-text search.

    ``lookup`` answers None for "no such work" and for an identifier kind the source does not
    index (without sending anything: see ``supports``); every method raises
    ``SourceDownError`` when the source cannot answer.
    """

    name: str
    label: str

    def supports(self, kind: IdKind) -> bool: ...

    def lookup(self, kind: IdKind, value: str) -> FoundWork | None: ...

    def search(self, query: str, k: int = 5) -> list[FoundWork]: ...

    @property
    def sent(self) -> int: ...

    @property
    def cached(self) -> int: ...

    @property
    def down(self) -> str | None: ...


def clean_doi(text: str | None) -> str | None:
    """'https://doi.org/10.1000/ABC' -> '10.1000/abc'."""
    match = _DOI.search(text or "")
    return match.group(0).rstrip(".,;)]").lower() if match else None


def clean_arxiv(text: str | None) -> str | None:
    """'arXiv:2101.00001v2' or 'http://arxiv.org/abs/2101.00001v2' -> '2101.00001'."""
    text = (text or "").strip()
    text = re.sub(r"^.*arxiv\.org/(abs|pdf)/", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^arxiv:\s*", "", text, flags=re.IGNORECASE).removesuffix(".pdf")
    match = _ARXIV.fullmatch(text)
    return match.group(1).lower() if match else None


def doi_path(doi: str) -> str:
    """A DOI as a URL path segment: '/' and the characters DOIs often hold ('(', ')', ':',
    ';', ',') kept as they are, the rest (spaces, '<', '>', '#', '?'...) percent-encoded."""
    return quote(doi, safe="/():;,")


def arxiv_doi(arxiv: str) -> str:
    """The DataCite DOI arXiv gives every paper: '10.48550/arxiv.2101.00001'."""
    return f"10.48550/arxiv.{arxiv.lower()}"


def plain_text(text: str | None) -> str | None:
    """Markup (JATS abstracts) stripped and whitespace folded; None when empty."""
    if not text:
        return None
    folded = " ".join(unicodedata.normalize("NFKC", _TAGS.sub(" ", text)).split())
    return folded or None
