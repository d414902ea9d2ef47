"""Comparison keys of one bibliography entry: surnames, year, title (folded)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

from papermind.domain import Reference
from papermind.grounding.text import norm_words

_YEAR = re.compile(r"\b(?:19|20)\d{2}(?=[a-z]?\b)")
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}


def name_key(name: str) -> str:
    """Folded surname of a name as printed: 'Ian Goodfellow', 'Goodfellow, I.', 'Lee J'."""
    if "," in name:
        name = name.split(",", 1)[0]
    name = re.sub(r"-\s+", "-", name)  # 'Jimeno- Yepes': a hyphen at a line break
    words = [w for w in re.split(r"[\s~]+", name.strip()) if w]
    kept = [w for w in words if not _initials(w) and w.strip(".").lower() not in _SUFFIXES]
    surname = kept[-1] if kept else (words[0] if words else "")
    plain = unicodedata.normalize("NFKD", surname)
    return "".join(c for c in plain if c.isalpha()).lower()


def _initials(word: str) -> bool:
    letters = word.replace(".", "").replace("-", "")
    return len(letters) <= 1 or (word.endswith(".") and len(letters) <= 3) or (
        letters.isupper() and len(letters) <= 3)


def plain(text: str) -> str:
    """Folded words of ``text`` separated by single spaces (punctuation dropped)."""
    return " ".join(norm_words(text))


@dataclass(frozen=True)
class Entry:
    """A Reference with the keys the resolver compares."""

    ref: Reference
    surnames: tuple[str, ...]
    year: int | None
    title: str
    raw: str
    title_text: str

    @classmethod
    def of(cls, ref: Reference) -> Entry:
        names = ref.authors or _names_from_raw(ref.raw)
        year = ref.year
        if year is None:
            found = _YEAR.search(ref.raw)
            year = int(found.group()) if found else None
        return cls(ref, tuple(k for k in map(name_key, names) if k), year,
                   plain(ref.title or ""), plain(ref.raw), ref.title or "")

    def has_first(self, surname: str) -> bool:
        """True when ``surname`` is the first author (or opens the raw entry)."""
        if self.surnames:
            return self.surnames[0] == surname
        return surname in self.raw[:60].replace(" ", "")

    def has_author(self, surname: str) -> bool:
        return surname in self.surnames or (not self.surnames and surname in self.raw[:200])

    def title_score(self, text: str) -> float:
        """0-100 similarity of a title or a whole reference string to this entry.

        The query and each of its sentences (a full reference string puts the title in a
        sentence of its own) are compared with the parsed title, its first sentence and
        every sentence of the raw entry (parsed titles often carry the venue); a long query
        may also be a piece of the raw entry."""
        query = plain(text)
        pieces = [query, *(plain(s) for s in re.split(r"(?<=\.)\s+", text))]
        best = max((fuzz.ratio(p, t) for p in pieces if p for t in self.titles), default=0.0)
        if len(query) >= 25 and len(query) <= len(self.raw):
            best = max(best, fuzz.partial_ratio(query, self.raw))
        return float(best)

    @property
    def titles(self) -> list[str]:
        found = [self.title, plain(self.title_text.split(". ")[0])]
        found += [plain(s) for s in re.split(r"\.\s+", self.ref.raw)[1:4]]
        return [t for t in found if len(t) >= 4]


def _names_from_raw(raw: str) -> list[str]:
    """Author names from the head of a raw entry (up to the year or the first period)."""
    head = re.split(r"\(?(?:19|20)\d{2}|\.\s", raw, maxsplit=1)[0]
    parts = re.split(r",|\band\b|&|;", head)
    return [p.strip() for p in parts if len(p.strip()) > 1][:20]
