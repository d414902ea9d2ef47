"""Consistency checks of the catalogues: every translation keeps its message's placeholders.

Run by the tests over every domain and language, so a catalogue added later (``web``) is
checked the same way; ``papermind.i18n.checks.problems()`` lists what is wrong.
"""

from __future__ import annotations

import string

from papermind.i18n.catalog import LOCALES


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def problems() -> list[str]:
    """'<lang>/<domain>.po: ...' for each unreadable file or mismatched placeholder."""
    from babel.messages.pofile import read_po

    found: list[str] = []
    for path in sorted(LOCALES.glob("*/LC_MESSAGES/*.po")):
        where = f"{path.parent.parent.name}/{path.name}"
        try:
            with path.open("rb") as handle:
                catalog = read_po(handle, abort_invalid=True)
        except Exception as err:  # any parse failure is a problem to list
            found.append(f"{where}: unreadable: {err}")
            continue
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
            strings = message.string if isinstance(message.string, tuple | list) \
                else (message.string,)
            wanted = set().union(*(_fields(i) for i in ids))
            for text in (s or "" for s in strings):
                try:
                    extra = _fields(text) - wanted
                except ValueError as err:
                    found.append(f"{where}: {ids[0]!r}: bad braces: {err}")
                    continue
                if text and extra:
                    found.append(f"{where}: {ids[0]!r}: unknown placeholders {sorted(extra)}")
    return found
