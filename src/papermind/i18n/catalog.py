"""Message catalogues: one PO file per language and domain, read at run time with Babel.

The msgid is the English text, so English needs no catalogue and any message missing from
a catalogue shows in English rather than failing. Placeholders use ``str.format`` names
(``{count} comments``), filled after translation so translators may reorder them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).with_name("locales")
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class Translator:
    """gettext for one domain and language; ``t("Summary")``, ``t.n("{n} item", "{n} items", n)``."""

    domain: str
    language: str
    messages: dict[str, str | tuple[str, ...]] = field(default_factory=dict, repr=False)
    plural_index: Callable[[int], int] = field(default=lambda n: int(n != 1), repr=False)

    def __call__(self, message: str, **values: object) -> str:
        found = self.messages.get(message)
        text = found if isinstance(found, str) and found else message
        return text.format(**values) if values else text

    def n(self, singular: str, plural: str, count: int, **values: object) -> str:
        """The plural form for ``count``; ``{count}`` is always available to the message."""
        found = self.messages.get(singular)
        if isinstance(found, tuple) and all(found):
            index = self.plural_index(count)
            text = found[min(index, len(found) - 1)]
        else:
            text = singular if count == 1 else plural
        return text.format(count=count, **values)


def available_languages(domain: str | None = None) -> tuple[str, ...]:
    """The source language plus every language with a catalogue (for ``domain`` if given)."""
    found = {SOURCE_LANGUAGE}
    pattern = f"*/LC_MESSAGES/{domain or '*'}.po"
    found.update(path.parent.parent.name for path in LOCALES.glob(pattern))
    return tuple(sorted(found))


@cache
def translator(domain: str, language: str) -> Translator:
    """The translator for ``domain`` in ``language`` (English when there is no catalogue)."""
    path = LOCALES / language / "LC_MESSAGES" / f"{domain}.po"
    if language == SOURCE_LANGUAGE or not path.is_file():
        return Translator(domain, SOURCE_LANGUAGE)
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=domain)
    messages: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        value = message.string
        messages[key] = tuple(v or "" for v in value) if isinstance(value, tuple | list) \
            else value or ""
    return Translator(domain, language, messages, _plural_function(catalog.plural_expr))


def _plural_function(expression: str) -> Callable[[int], int]:
    """The catalogue's C plural expression (``n != 1``) as a function, via the stdlib."""
    from gettext import c2py

    return c2py(expression)
