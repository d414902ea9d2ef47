"""Field values from a reference manager's files, made safe to store.

A library file is input like any other: a field may hold a BLOB, a number where text belongs,
NUL bytes or megabytes of text. ``text_value`` turns what can be read into bounded text
(noting any truncation) and raises ``BadValue`` for what cannot, so the importer refuses that
one item with a one-line reason and goes on with the rest.
"""

from __future__ import annotations

TITLE_CHARS = 2_000
NAME_CHARS = 500
LABEL_CHARS = 200
ABSTRACT_CHARS = 50_000
FIELD_CHARS = 5_000


class BadValue(ValueError):
    """A field value that is not text (its message names the field and what it holds)."""


def text_value(value: object, what: str, limit: int, notes: list[str]) -> str:
    """``value`` as text of at most ``limit`` characters (a note in ``notes`` if cut)."""
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray | memoryview):
        raise BadValue(f"{what} is binary data ({len(bytes(value)):,} bytes), not text")
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise BadValue(f"{what} is a {type(value).__name__}, not text")
    text = str(value).replace("\x00", "")
    if len(text) > limit:
        notes.append(f"{what} cut from {len(text):,} to {limit:,} characters")
        text = text[:limit]
    return text


def limit_for(field_name: str) -> int:
    """How long a field may be: titles and names short, abstracts long, others in between."""
    name = field_name.lower()
    if name == "title":
        return TITLE_CHARS
    if name in {"abstract", "abstractnote"}:
        return ABSTRACT_CHARS
    return FIELD_CHARS
