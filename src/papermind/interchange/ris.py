"""RIS (the tagged format of EndNote, Mendeley, Zotero imports) from WorkMetadata."""

from __future__ import annotations

from collections.abc import Iterable

from papermind.domain.works import WorkMetadata

RIS_TYPES = {"article": "JOUR", "inproceedings": "CPAPER", "incollection": "CHAP",
             "book": "BOOK", "phdthesis": "THES", "mastersthesis": "THES",
             "techreport": "RPRT", "unpublished": "UNPB"}


def to_ris(items: Iterable[tuple[str, WorkMetadata]]) -> str:
    """Every ``(key, metadata)`` as one RIS record (``TY`` first, ``ER`` last)."""
    records = []
    for key, metadata in items:
        lines = [("TY", RIS_TYPES.get(metadata.entry_type, "GEN")), ("ID", key)]
        lines.append(("TI", metadata.title))
        lines += [("AU", f"{p.family}, {p.given}" if p.given else p.family)
                  for p in metadata.authors]
        lines += [("PY", str(metadata.year) if metadata.year else ""),
                  ("T2", metadata.venue or ""), ("DO", metadata.doi or ""),
                  ("UR", metadata.url or (f"https://arxiv.org/abs/{metadata.arxiv}"
                                          if metadata.arxiv else "")),
                  ("AB", metadata.abstract or ""), ("VL", metadata.extra.get("volume", "")),
                  ("IS", metadata.extra.get("number", "")), ("PB", metadata.extra.get("publisher", ""))]
        lines.append(("ER", ""))
        records.append("\n".join(f"{tag}  - {_one_line(value)}"
                                 for tag, value in lines if value or tag == "ER"))
    return "\n\n".join(records) + ("\n" if records else "")


def _one_line(value: str) -> str:
    return " ".join(value.split())
