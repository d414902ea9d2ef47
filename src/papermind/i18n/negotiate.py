"""Choose the output language: an explicit setting, else the browser's Accept-Language.

Language codes are reduced to their primary subtag (``zh-CN``, ``zh_Hans`` -> ``zh``): the
catalogues are per language, and a reader of traditional Chinese is better served by the
simplified catalogue than by English. ``auto`` means "decide from the text or the request".
"""

from __future__ import annotations

import re

from papermind.i18n.catalog import SOURCE_LANGUAGE, available_languages

AUTO = "auto"
_TAG = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$")


class LanguageError(ValueError):
    """A language code that is not a language (the message is safe to show a user)."""


def normalize_language(code: str) -> str:
    """``'zh-CN'`` -> ``'zh'``; ``'auto'`` stays; anything else that is no tag is an error."""
    code = code.strip()
    if code.lower() == AUTO:
        return AUTO
    if not _TAG.match(code):
        raise LanguageError(f"not a language code: {code!r} (use e.g. 'en', 'zh' or 'auto')")
    primary = re.split(r"[-_]", code)[0].lower()
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(primary)
    except (UnknownLocaleError, ValueError) as err:
        raise LanguageError(f"unknown language code: {code!r}") from err
    return primary


def parse_accept_language(header: str | None) -> list[str]:
    """Primary language codes from an ``Accept-Language`` header, best first (q-ordered)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([^;\s]*)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                continue
        tag = tag.strip()
        if not tag or tag == "*" or quality <= 0 or not _TAG.match(tag):
            continue
        ranked.append((-quality, index, re.split(r"[-_]", tag)[0].lower()))
    seen: list[str] = []
    for _, _, code in sorted(ranked):
        if code not in seen:
            seen.append(code)
    return seen


def negotiate(setting: str | None = AUTO, accept_language: str | None = None, *,
              domain: str | None = None, supported: tuple[str, ...] | None = None) -> str:
    """The language to show: the setting unless ``auto``, else the header's best supported
    language, else English. ``supported`` defaults to the languages with a catalogue."""
    choices = supported if supported is not None else available_languages(domain)
    if setting and normalize_language(setting) != AUTO:
        return normalize_language(setting)
    for code in parse_accept_language(accept_language):
        if code in choices:
            return code
    return SOURCE_LANGUAGE


def language_name(code: str) -> str:
    """The English name of a language with its own name: ``'zh'`` -> ``'Chinese (中文)'``."""
    from babel import Locale

    locale = Locale.parse(normalize_language(code))
    english = locale.get_display_name("en") or code
    native = locale.get_display_name(locale)
    return english if not native or native == english else f"{english} ({native})"
