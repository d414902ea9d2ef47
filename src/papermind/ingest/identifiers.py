"""A paper's own DOI and arXiv id, from the text printed on its first page.

Only the front of the paper is searched (first page flow, its furniture: the arXiv side stamp
and running headers), never the bibliography, so a cited work's DOI is not taken for the
paper's own. Both are returned normalised (``normalize_doi``, ``normalize_arxiv``): a DOI in
lower case without resolver prefix, an arXiv id without its ``vN`` version suffix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+)", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"^(?:https?://)?(?:dx\.)?(?:doi\.org/|doi:\s*)", re.IGNORECASE)
_ARXIV_MARKED = re.compile(
    r"(?:arxiv\s*(?:preprint)?\s*(?:abs/|:)\s*|arxiv\.org/(?:abs|pdf)/)"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?P<version>v\d+)?",
    re.IGNORECASE,
)
_ARXIV_BARE = re.compile(r"^(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?P<version>v\d+)?$",
                         re.IGNORECASE)
# the stamp arXiv prints down the first page's margin: "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017"
_ARXIV_STAMP = re.compile(r"arxiv\s*:\s*(?P<id>\d{4}\.\d{4,5})(?P<version>v\d+)?\s*\[", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Identifiers:
    """What identifies a paper beyond its bytes; None where nothing was found."""

    doi: str | None = None
    arxiv: str | None = None


def normalize_doi(text: str | None) -> str | None:
    """'https://doi.org/10.1000/ABC.' -> '10.1000/abc'; None when ``text`` holds no DOI."""
    if not text:
        return None
    match = _DOI.search(_DOI_PREFIX.sub("", text.strip()))
    return match.group(1).rstrip(".,;)]").lower() if match else None


def normalize_arxiv(text: str | None) -> str | None:
    """'arXiv:2101.00001v2', 'https://arxiv.org/abs/2101.00001' or '2101.00001' -> '2101.00001'."""
    if not text:
        return None
    text = text.strip()
    match = _ARXIV_MARKED.search(text) or _ARXIV_BARE.match(text)
    return match.group("id").lower() if match else None


def find_identifiers(lines: Iterable[str]) -> Identifiers:
    """The first DOI and arXiv id printed in ``lines`` (the front of one paper)."""
    doi: str | None = None
    arxiv: str | None = None
    for text in lines:
        if doi is None and (found := _DOI.search(text)):
            doi = normalize_doi(found.group(1))
        if arxiv is None and (stamp := _ARXIV_STAMP.search(text) or _ARXIV_MARKED.search(text)):
            arxiv = stamp.group("id").lower()
        if doi is not None and arxiv is not None:
            break
    return Identifiers(doi=doi, arxiv=arxiv)
