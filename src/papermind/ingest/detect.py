"""Content sniffing: decide pdf / md / txt from the bytes, and refuse what cannot be read."""

from __future__ import annotations

import re
from typing import Literal

from papermind.errors import IngestError

Kind = Literal["pdf", "md", "txt"]

_MD_HEADING = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)


def detect_kind(data: bytes, name: str) -> Kind:
    """The document type of ``data``; raises IngestError for empty or binary input."""
    if not data or not data.strip():
        raise IngestError(f"{name or 'file'} is empty", hint="nothing to parse")
    if data[:1024].lstrip(b"\x00\t\r\n \x0c").startswith(b"%PDF-") or b"%PDF-" in data[:1024]:
        return "pdf"
    text = decode_text(data, name)
    if name.lower().endswith(".pdf"):  # the content decides, and it is not a PDF
        raise IngestError(f"{name} is not a PDF (its content is text)",
                          hint="a .pdf file must be a PDF; text files are accepted as .txt or .md")
    if name.lower().endswith((".md", ".markdown")) or len(_MD_HEADING.findall(text[:20000])) >= 2:
        return "md"
    return "txt"


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM) or legacy cp1252 text; IngestError when the bytes are binary."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        if b"\x00" in data[:20000]:
            raise IngestError(
                f"{name or 'file'} is neither a PDF nor UTF-8 text",
                hint="supported inputs: .pdf, .txt, .md",
            ) from None
        text = data.decode("cp1252", errors="replace")  # legacy 8-bit text files
    controls = sum(1 for ch in text[:20000] if ord(ch) < 32 and ch not in "\t\n\r\x0c")
    if controls > max(2, len(text[:20000]) // 100):
        raise IngestError(
            f"{name or 'file'} looks like binary data, not text",
            hint="supported inputs: .pdf, .txt, .md",
        )
    return text
