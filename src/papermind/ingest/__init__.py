"""Ingestion: PDF, plain text and Markdown files -> ``domain.Paper``.

``parse_file`` and ``parse_bytes`` are the public entry points; the type is detected from
the content, and unusable input raises ``IngestError`` with one clear message.
"""

from __future__ import annotations

from papermind.ingest.parse import parse_bytes, parse_file

__all__ = ["parse_bytes", "parse_file"]
