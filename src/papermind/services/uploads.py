"""Uploaded files: size-limited reading, type checked by content, a safe display name."""

from __future__ import annotations

import re
from typing import Protocol

from papermind.errors import InputError

CHUNK = 1 << 20


class PayloadTooLarge(InputError):
    """Upload over the size limit."""


class UnsupportedType(InputError):
    """Upload that is neither a PDF nor text."""


class AsyncReadable(Protocol):
    async def read(self, size: int = -1) -> bytes: ...


async def read_limited(upload: AsyncReadable, limit_mb: float) -> bytes:
    """The whole upload, or PayloadTooLarge as soon as it passes ``limit_mb``."""
    limit = int(limit_mb * 2**20)
    data = bytearray()
    while chunk := await upload.read(CHUNK):
        data.extend(chunk)
        if len(data) > limit:
            raise PayloadTooLarge(f"the upload is larger than {limit_mb:g} MiB")
    if not data:
        raise InputError("the upload is empty")
    return bytes(data)


def sniff(data: bytes) -> str:
    """'pdf' or 'text' from the bytes themselves; the client's name and type are ignored."""
    head = data[:4096]
    if head.lstrip()[:5] == b"%PDF-":
        return "pdf"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as err:  # a multibyte character cut at the end is fine
        if err.start < len(head) - 4:
            raise UnsupportedType("the upload is neither a PDF nor UTF-8 text") from err
    if b"\x00" in head:
        raise UnsupportedType("the upload is neither a PDF nor UTF-8 text")
    return "text"


def safe_name(name: str | None, kind: str) -> str:
    """A display name only: files are stored by content hash, never under this name."""
    base = re.sub(r"[^A-Za-z0-9._ -]+", "_", (name or "").replace("\\", "/").rsplit("/", 1)[-1])
    base = base[:120].strip(" .")
    claimed = base.lower().rsplit(".", 1)[-1] if "." in base else ""
    # a name claiming .pdf keeps it, so ingest refuses a .pdf whose content is not a PDF
    suffix = ".pdf" if kind == "pdf" or claimed == "pdf" else (
        ".md" if claimed == "md" else ".txt")
    stem = base.rsplit(".", 1)[0] if "." in base else base
    return (stem or "upload") + suffix
