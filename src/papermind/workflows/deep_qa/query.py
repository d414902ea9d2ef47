"""Query enhancement and search-mode choice: deterministic rules, recorded with reasons."""

from __future__ import annotations

import re
from dataclasses import dataclass

from papermind.domain.chunk import SearchMode
from papermind.i18n.query_terms import glossary_terms, is_stop_word

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-+/.]*[A-Za-z0-9+]|[A-Za-z]|\d[\d.,%]*")
_QUOTED = re.compile(r"[\"\u201c]([^\"\u201d]{2,80})[\"\u201d]")
_SECTION_REF = re.compile(
    r"\b(section|sec\.|table|tab\.|figure|fig\.|equation|eq\.|appendix|algorithm)\s*[A-Z]?\d",
    re.IGNORECASE)
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*%?")
_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]*[A-Z0-9][A-Za-z0-9\-]*\b")
_SINCE = re.compile(r"\b(?:since|after|from)\s+((?:19|20)\d{2})\b", re.IGNORECASE)
_BEFORE = re.compile(r"\b(?:before|until|prior to)\s+((?:19|20)\d{2})\b", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+((?:19|20)\d{2})\s+and\s+((?:19|20)\d{2})\b", re.IGNORECASE)
_IN_YEAR = re.compile(r"\bin\s+((?:19|20)\d{2})\b", re.IGNORECASE)
_RECENT = re.compile(r"\b(recent|recently|latest|newest|state[- ]of[- ]the[- ]art)\b",
                     re.IGNORECASE)
_CONCEPTUAL = re.compile(
    r"^\s*(why|how does|how do|how can|how is|how are|explain|what is the (idea|intuition|"
    r"role|effect|relationship)|compare|what are the (advantages|limitations|differences))",
    re.IGNORECASE)
RECENT_YEARS = 3
"""'recent' means the last this-many years of the library's newest paper year."""


@dataclass(frozen=True)
class YearFilter:
    """Year bounds parsed from the question, and the phrase that set them."""

    year_min: int | None = None
    year_max: int | None = None
    phrase: str = ""


@dataclass(frozen=True)
class ModeChoice:
    mode: SearchMode
    reason: str


def keywords(text: str, limit: int = 12) -> list[str]:
    """Content words and quoted phrases, in order, without duplicates or stopwords."""
    found: list[str] = [m.group(1).strip() for m in _QUOTED.finditer(text)]
    for match in _WORD.finditer(text):
        word = match.group(0).strip(".,")
        if len(word) < 2 and not word.isdigit():
            continue
        if is_stop_word(word):
            continue
        if word.lower() not in {f.lower() for f in found}:
            found.append(word)
    # a Chinese question over English papers: the glossary's terms too
    found += [w for w in glossary_terms(text) if w not in found]
    return found[:limit]


def year_filter(text: str, *, newest_year: int | None = None) -> YearFilter:
    """Time constraints in the question ("since 2020", "recent") as year bounds."""
    if match := _BETWEEN.search(text):
        first, last = sorted((int(match.group(1)), int(match.group(2))))
        return YearFilter(first, last, match.group(0))
    low: int | None = None
    high: int | None = None
    phrases = []
    if match := _SINCE.search(text):
        low = int(match.group(1)) + (1 if match.group(0).lower().startswith("after") else 0)
        phrases.append(match.group(0))
    if match := _BEFORE.search(text):
        high = int(match.group(1)) - 1
        phrases.append(match.group(0))
    if low is None and high is None and (match := _IN_YEAR.search(text)):
        low = high = int(match.group(1))
        phrases.append(match.group(0))
    if low is None and newest_year is not None and (match := _RECENT.search(text)):
        low = newest_year - RECENT_YEARS + 1
        phrases.append(match.group(0))
    return YearFilter(low, high, ", ".join(phrases))


def choose_mode(question: str, hint: SearchMode | None = None) -> ModeChoice:
    """bm25 for exact terms, section references and numbers; dense for conceptual questions.

    The rule decides when it is clear; otherwise the planner's hint; otherwise hybrid.
    """
    exact = _exact_signals(question)
    conceptual = bool(_CONCEPTUAL.search(question))
    if exact and not conceptual:
        return ModeChoice("bm25", f"keyword search: the question has {', '.join(exact)}")
    if conceptual and not exact:
        return ModeChoice("dense", "dense search: a conceptual question (why/how/explain/compare)")
    if hint is not None:
        why = "mixed signals" if exact and conceptual else "no clear signal"
        return ModeChoice(hint, f"{why}; following the planner's hint '{hint}'")
    if exact and conceptual:
        return ModeChoice("hybrid", f"hybrid search: conceptual, but with {', '.join(exact)}")
    return ModeChoice("hybrid", "hybrid search: no clear keyword or conceptual signal")


def _exact_signals(question: str) -> list[str]:
    signals = []
    if _QUOTED.search(question):
        signals.append("a quoted phrase")
    if _SECTION_REF.search(question):
        signals.append("a section/table/figure reference")
    without_years = re.sub(r"\b(19|20)\d{2}\b", "", question)
    if _NUMBER.search(without_years):
        signals.append("a number")
    acronyms = [a for a in _ACRONYM.findall(question) if not a.isdigit()]
    if acronyms:
        signals.append(f"exact terms ({', '.join(acronyms[:3])})")
    return signals


def expand(query: str, related: list[str], limit: int = 6) -> str:
    """The query with up to ``limit`` related terms appended (no duplicates)."""
    lowered = query.lower()
    extra = [t.strip() for t in related if t.strip() and t.strip().lower() not in lowered]
    return " ".join([query, *extra[:limit]]).strip()
