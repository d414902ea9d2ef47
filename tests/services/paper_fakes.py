"""A tiny stand-in parser for library tests: one page, one line per text line."""

from __future__ import annotations

import hashlib
from pathlib import PurePath

from papermind.domain import Line, Page, Paper
from papermind.errors import IngestError


def parse_text(data: bytes, name: str) -> Paper:
    """Parse UTF-8 text: first line is the title; IngestError when empty or binary."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise IngestError(f"{name} is not text") from None
    if not text.strip():
        raise IngestError(f"{name} is empty")
    lines = [Line(page=1, n=i, text=t) for i, t in enumerate(text.splitlines(), start=1)]
    suffix = PurePath(name).suffix.lstrip(".").lower()
    return Paper(id=hashlib.sha256(data).hexdigest(), source_name=name,
                 source_type=suffix if suffix in {"md", "pdf"} else "txt",
                 title=lines[0].text.lstrip("# "), pages=[Page(number=1, lines=lines)])
