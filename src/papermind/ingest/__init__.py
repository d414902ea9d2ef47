"""Ingestion: PDF, plain text and Markdown files -> ``domain.Paper``.

``parse_file`` and ``parse_bytes`` are the public entry points; the type is detected from
the content, and unusable input raises ``IngestError`` with one clear message. They are
imported on first use, so a process that only talks to the parsing worker
(``ingest.sandbox``) never loads PDFium and the layout code itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from papermind.ingest.parse import parse_bytes, parse_file

__all__ = ["parse_bytes", "parse_file"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from papermind.ingest import parse

        return getattr(parse, name)
    raise AttributeError(f"module 'papermind.ingest' has no attribute {name!r}")
