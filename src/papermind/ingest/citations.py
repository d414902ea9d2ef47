"""In-text citation markers (numeric and author-year) resolved to reference entries."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from papermind.domain.paper import Reference
from papermind.i18n.scripts import has_cjk

_NUMERIC = re.compile(r"\[(\s*\d{1,3}(?:\s*[-–,;]\s*\d{1,3})*\s*)\]")
_PARTICLES = r"(?:(?:van|von|de|der|den|da|del|della|di|du|dos|la|le|ten|ter)\s)"
_NAME = (rf"(?:(?<![\w\-]){_PARTICLES}{{0,2}}[A-Z][A-Za-z\u00C0-\u024F'`´’\-]+"
         r"|[\u4e00-\u9fff]{2,4}?)")  # a Chinese name: '张三' in '（张三等, 2020）'
"""A surname: capitalised, after no letter ('arXiv' holds no 'Xiv'), particles allowed
('van der Berg', 'Jan van Gemert')."""
_AND = r"(?:and|&amp;|&|和|与)"  # '&amp;': Markdown converted from PDF escapes '&'
_AUTHORS = (rf"{_NAME}(?:\s+et\s+al\.?|等人?|\s*{_AND}\s*{_NAME}"
            rf"|(?:,\s*{_NAME})+,?\s*{_AND}\s*{_NAME})?")
_YEAR = r"(?:19|20)\d\d[a-z]?(?!\w|[-–/.]\d)"
"""A year standing alone ('2019a', not the digits of 'ZR2023QF154' or 'NSF 2019-11')."""
_PAREN = re.compile(r"\(([^()]{4,400}?(?:19|20)\d\d[a-z]?[^()]{0,40})\)")
_NARRATIVE = re.compile(rf"({_AUTHORS})\s*\(\s*((?:{_YEAR})(?:\s*[,;]\s*{_YEAR})*)\s*[,;)]")
_MONTH = re.compile(r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?$")
"""A month is no author: '(May 2020)', '(born 21 April 1951)'."""
_ITEM = re.compile(rf"({_AUTHORS})(?:,\s*|\s+)((?:{_YEAR})(?:\s*,\s*{_YEAR})*)")


@dataclass(slots=True)
class Marker:
    """A citation found in a block's text: where, how printed, and the resolved keys."""

    start: int
    end: int
    """Offsets of the marker in the block's text (end exclusive)."""
    marker: str
    style: str
    """'numeric' ([3], [1-4]) or 'author_year' ((Smith et al., 2020))."""
    keys: list[str]


def _fold(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if ch.isalpha()).lower()


class Resolver:
    """Looks up reference keys by number or by (first-author surname, year)."""

    def __init__(self, references: Sequence[Reference], surnames: Sequence[str]) -> None:
        self._numeric = {r.key for r in references if r.key.isdigit()}
        self._by_name: dict[tuple[str, str], list[Reference]] = {}
        for ref, name in zip(references, surnames, strict=True):
            if ref.year is not None:
                self._by_name.setdefault((name, str(ref.year)), []).append(ref)
        self._refs = list(references)
        self._names = list(surnames)

    def numeric(self, body: str) -> list[str]:
        keys: list[str] = []
        for part in re.split(r"[,;]", body):
            bounds = [b.strip() for b in re.split(r"[-–]", part) if b.strip()]
            if not bounds or not all(b.isdigit() for b in bounds):
                return []
            lo, hi = int(bounds[0]), int(bounds[-1])
            if hi < lo or hi - lo > 50:
                return []
            keys.extend(str(k) for k in range(lo, hi + 1))
        return keys if all(k in self._numeric for k in keys) else []

    def author_year(self, authors: str, year: str) -> str | None:
        words = re.split(r"\s+|等|和|与", authors.strip())
        first = next((w for w in words if not w[:1].islower()), words[0])  # 'van der Berg'
        name = _fold(first)
        plain, suffix = year[:4], year[4:]
        candidates = self._by_name.get((name, plain), [])
        if not candidates:
            candidates = [r for r in self._refs if r.year == int(plain) and name
                          and name in _fold(r.raw[:60])]
        if not candidates:  # the entry's year misread (one in its title) or two entries run together
            candidates = [r for r, n in zip(self._refs, self._names, strict=True) if n == name
                          and re.search(rf"(?<![\d/.:-]){plain}{suffix}(?![\d/-]|\.\d)", r.raw)]
        if not candidates:
            return None
        if suffix and len(candidates) > 1:
            index = ord(suffix) - ord("a")
            return candidates[min(index, len(candidates) - 1)].key
        return candidates[0].key


def _resolve(authors: str, years: list[str], resolver: Resolver) -> tuple[list[str], int]:
    """Keys for ``authors`` + ``years``; a lead-in such as 'Similarly,' is dropped when needed.

    Returns the keys and how many characters of ``authors`` were skipped.
    """
    skipped = 0
    while True:
        keys = [k for y in years if (k := resolver.author_year(authors, y))]
        if keys or "," not in authors:
            return (keys, skipped) if keys else ([], 0)
        rest = authors[authors.index(",") + 1:].lstrip()
        skipped, authors = skipped + len(authors) - len(rest), rest


def find_markers(text: str, resolver: Resolver) -> list[Marker]:
    """Every citation marker in ``text`` (resolved keys may be empty when unmatched)."""
    found: list[Marker] = []
    for match in _NUMERIC.finditer(text):
        keys = resolver.numeric(match.group(1))
        if keys:
            found.append(Marker(match.start(), match.end(), match.group(0), "numeric", keys))
    taken: list[tuple[int, int]] = []
    for match in _NARRATIVE.finditer(text):
        years = re.split(r"\s*[,;]\s*", match.group(2))
        keys, skipped = _resolve(match.group(1), years, resolver)
        if not keys and has_cjk(match.group(1)):
            continue  # '方法(2020)': Chinese text before a year is a name only when it resolves
        start = match.start() + skipped
        end = text.find(")", match.end(2)) + 1 or match.end()
        found.append(Marker(start, end, text[start:end], "author_year", keys))
        taken.append((match.start(), end))
    for match in _PAREN.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue
        keys = []
        items = [i for i in _ITEM.finditer(match.group(1)) if not _MONTH.match(i.group(1))]
        for item in items:
            keys += _resolve(item.group(1), re.split(r"\s*,\s*", item.group(2)), resolver)[0]
        if keys or items:
            found.append(Marker(match.start(), match.end(), match.group(0), "author_year", keys))
    return sorted(found, key=lambda m: m.start)
