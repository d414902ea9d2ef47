"""Languages: message catalogues, language negotiation and language detection.

``translator(domain, lang)`` reads ``locales/<lang>/LC_MESSAGES/<domain>.po`` with Babel's
PO reader (no compile step, nothing downloaded) and returns a gettext function whose
msgids are the English strings; a missing catalogue or message falls back to English.
Domains: ``reports`` (report templates), ``web`` (the web UI's own strings).

``negotiate`` picks a supported language from a setting and/or an ``Accept-Language``
header; ``detect_language`` guesses a text's language from its script (for ``--lang auto``).
Depends on nothing else in PaperMind, so reports, web and workflows may all use it.
"""

from papermind.i18n.catalog import Translator, available_languages, translator
from papermind.i18n.detect import detect_language, script_counts
from papermind.i18n.negotiate import (
    AUTO,
    LanguageError,
    language_name,
    negotiate,
    normalize_language,
    parse_accept_language,
)

__all__ = [
    "AUTO", "LanguageError", "Translator", "available_languages", "detect_language",
    "language_name", "negotiate", "normalize_language", "parse_accept_language",
    "script_counts", "translator",
]
