"""Guess a text's language from its writing system (for ``--lang auto``).

Script, not vocabulary: Han without kana is Chinese, kana is Japanese, Hangul Korean,
Cyrillic Russian, Arabic Arabic, Greek Greek, Devanagari Hindi, Thai Thai; Latin script is
reported as English (telling French from English would need a model; say ``--lang fr``).
Letters of each script are counted; a script wins with at least ``share`` of the letters,
so an English question quoting one Chinese term stays English, and the reverse.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x3040, 0x30FF, "kana"), (0x31F0, 0x31FF, "kana"), (0xFF66, 0xFF9F, "kana"),
    (0x1100, 0x11FF, "hangul"), (0x3130, 0x318F, "hangul"), (0xAC00, 0xD7AF, "hangul"),
    (0x3400, 0x4DBF, "han"), (0x4E00, 0x9FFF, "han"), (0xF900, 0xFAFF, "han"),
    (0x20000, 0x3134F, "han"),
    (0x0400, 0x052F, "cyrillic"), (0x0600, 0x06FF, "arabic"), (0x0370, 0x03FF, "greek"),
    (0x0900, 0x097F, "devanagari"), (0x0E00, 0x0E7F, "thai"), (0x0590, 0x05FF, "hebrew"),
)
_LANGUAGE = {"han": "zh", "kana": "ja", "hangul": "ko", "cyrillic": "ru", "arabic": "ar",
             "greek": "el", "devanagari": "hi", "thai": "th", "hebrew": "he", "latin": "en"}
# a CJK character carries about as much as a short Latin word: weigh them so
_WEIGHT = {"han": 3, "kana": 3, "hangul": 2}


def script_of(char: str) -> str | None:
    """The script of one letter ('han', 'latin', ...), or None for digits, marks, spaces."""
    code = ord(char)
    for low, high, name in _RANGES:
        if low <= code <= high:
            return name
    if char.isalpha() and unicodedata.name(char, "").startswith("LATIN"):
        return "latin"
    return None


def script_counts(text: str) -> Counter[str]:
    """Letters per script in ``text``."""
    return Counter(s for s in map(script_of, text) if s is not None)


def detect_language(text: str, *, default: str = "en", share: float = 0.3) -> str:
    """The language code of ``text`` by script, or ``default`` when it has no letters."""
    counts = script_counts(text)
    if counts["kana"]:  # Japanese mixes kana with Han; Chinese never uses kana
        counts["kana"] += counts.pop("han", 0)
    weighted = {name: n * _WEIGHT.get(name, 1) for name, n in counts.items()}
    total = sum(weighted.values())
    if not total:
        return default
    others = [(n, name) for name, n in weighted.items() if name != "latin"]
    if others and max(others)[0] / total >= share:
        return _LANGUAGE[max(others)[1]]
    return "en" if weighted.get("latin") else default
