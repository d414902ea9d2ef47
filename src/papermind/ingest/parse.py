"""Public entry points: parse a file or bytes into a Paper."""

from __future__ import annotations

import hashlib
from pathlib import Path

from papermind.config import IngestSettings
from papermind.domain.paper import Paper
from papermind.errors import IngestError
from papermind.ingest.assemble import build_paper
from papermind.ingest.detect import decode_text, detect_kind
from papermind.ingest.pdf_input import pdf_pages
from papermind.ingest.pdf_scans import PageProgress
from papermind.ingest.text_input import text_pages


def parse_file(path: Path, *, settings: IngestSettings | None = None) -> Paper:
    """Parse the file at ``path`` (PDF, .txt or .md, detected by content)."""
    settings = settings or IngestSettings()
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise IngestError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    if size > settings.max_file_mb * 1024 * 1024:
        raise _too_large(path.name, size, settings)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    return parse_bytes(data, path.name, settings=settings)


def parse_bytes(data: bytes, name: str, *, settings: IngestSettings | None = None,
                on_page: PageProgress | None = None) -> Paper:
    """Parse an in-memory document; ``name`` is only used for messages and the .md hint.
    ``on_page(done, total)`` hears each page read by OCR."""
    settings = settings or IngestSettings()
    if len(data) > settings.max_file_mb * 1024 * 1024:
        raise _too_large(name, len(data), settings)
    kind = detect_kind(data, name)
    paper_id = hashlib.sha256(data).hexdigest()
    if kind == "pdf":
        pages, findings, warnings = pdf_pages(data, name, settings, on_page)
        return _with_text(build_paper(pages, findings, paper_id=paper_id, source_name=name,
                                      source_type="pdf", warnings=warnings))
    text = decode_text(data, name)
    pages = text_pages(text, markdown=kind == "md")
    if len(pages) > settings.max_pages:
        raise IngestError(f"{name} has {len(pages)} pages; the limit is {settings.max_pages}",
                          hint="raise ingest.max_pages to accept it")
    return _with_text(build_paper(pages, [], paper_id=paper_id, source_name=name,
                                  source_type=kind))


def _with_text(paper: Paper) -> Paper:
    """``paper``, or IngestError when none of its lines holds a word (letters)."""
    for page in paper.pages:
        for line in page.lines:
            if any(ch.isalpha() for ch in line.text):
                return paper
    raise IngestError(f"{paper.source_name} has no usable text (at most page numbers, running "
                      "heads or symbols)", hint="nothing in it could be read, searched or cited")


def _too_large(name: str, size: int, settings: IngestSettings) -> IngestError:
    return IngestError(
        f"{name} is {size / 1024 / 1024:.1f} MiB; the limit is {settings.max_file_mb:g} MiB",
        hint="raise ingest.max_file_mb to accept it",
    )
