"""Which language a run writes its free text in: the flag, else the setting; ``auto`` is
the question's language for QA (by script) and English for reading and review."""

from __future__ import annotations

from papermind.errors import InputError
from papermind.i18n import AUTO, LanguageError, detect_language, normalize_language


def output_language(requested: str | None, setting: str, question: str | None = None) -> str:
    """The ISO 639-1 code to write in (InputError for a code that is no language)."""
    try:
        code = normalize_language(requested or setting or AUTO)
    except LanguageError as err:
        raise InputError(str(err)) from None
    if code != AUTO:
        return code
    return detect_language(question) if question else "en"
