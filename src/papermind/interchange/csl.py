"""CSL-JSON (the Citation Style Language's input format, csl-data.json) from WorkMetadata."""

from __future__ import annotations

from typing import Any

from papermind.domain.works import WorkMetadata

CSL_TYPES = {"article": "article-journal", "inproceedings": "paper-conference",
             "incollection": "chapter", "book": "book", "phdthesis": "thesis",
             "mastersthesis": "thesis", "techreport": "report", "unpublished": "manuscript"}
_NUMBERS = {"volume": "volume", "number": "issue", "pages": "page", "publisher": "publisher",
            "isbn": "ISBN", "issn": "ISSN", "note": "note"}


def to_csl(key: str, metadata: WorkMetadata) -> dict[str, Any]:
    """One CSL-JSON item; ``key`` becomes its ``id`` (and ``citation-key``)."""
    item: dict[str, Any] = {"id": key, "citation-key": key, "type": _type(metadata)}
    if metadata.title:
        item["title"] = metadata.title
    if metadata.authors:
        item["author"] = [{"family": p.family, "given": p.given} if p.given
                          else {"literal": p.family} for p in metadata.authors]
    if metadata.year:
        item["issued"] = {"date-parts": [[metadata.year]]}
    if metadata.venue:
        item["container-title"] = metadata.venue
    if metadata.doi:
        item["DOI"] = metadata.doi
    url = metadata.url or (f"https://arxiv.org/abs/{metadata.arxiv}" if metadata.arxiv else None)
    if url:
        item["URL"] = url
    if metadata.arxiv:
        item["number"] = f"arXiv:{metadata.arxiv}"
        item.setdefault("container-title", "arXiv")
    if metadata.abstract:
        item["abstract"] = metadata.abstract
    for name, csl_name in _NUMBERS.items():
        if metadata.extra.get(name) and csl_name not in item:
            item[csl_name] = metadata.extra[name]
    return item


def _type(metadata: WorkMetadata) -> str:
    if metadata.entry_type == "misc" and metadata.arxiv:
        return "article"  # CSL's type for preprints
    return CSL_TYPES.get(metadata.entry_type, "document")
