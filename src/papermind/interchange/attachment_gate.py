"""Which attachment files an import may read: inside the folders the user pointed at, and
really of the type the library declares.

A reference manager's library is input: a linked attachment may point at ``/etc/passwd`` or
an SSH key and call it a PDF. A path is taken only when, with every symlink resolved, it lies
under one of the allowed folders (a Zotero data directory's ``storage/`` and its linked-file
base folder; a .bib file's folder), unless the user allows outside paths; and its content must
start like a PDF (``%PDF-`` within the first 1024 bytes, where PDF readers look for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

HEADER_WINDOW = 1024


def refusal(path: Path, roots: Sequence[Path], *, allow_outside: bool = False) -> str | None:
    """Why ``path`` may not be imported, or None when it may."""
    real = path.resolve()
    if not allow_outside and not any(_under(real, root.resolve()) for root in roots):
        allowed = ", ".join(str(r) for r in roots) or "none"
        return (f"attachment outside the library's folders: {path} (allowed: {allowed};"
                " --allow-outside to take it)")
    return content_refusal(real)


def content_refusal(path: Path) -> str | None:
    """Why ``path``, declared a PDF, is not one (None when it starts like a PDF)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(HEADER_WINDOW)
    except OSError as err:
        return f"attachment unreadable: {path} ({err.strerror or err})"
    if b"%PDF-" in head:
        return None
    kind = "text" if _looks_like_text(head) else "binary data of another type"
    return f"declared a PDF but the file is {kind}: {path}"


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _looks_like_text(head: bytes) -> bool:
    if not head or b"\x00" in head:
        return not head
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as err:
        return err.start >= len(head) - 4  # a character cut by the window
    return True
