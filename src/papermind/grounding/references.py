"""Reference grounding: a cited work must be an entry of the paper's own bibliography.

``ReferenceResolver(paper).check(cited)`` accepts a numeric marker ('[3]', '3'), an entry
key ('smith2020a'), an author-year citation ('Smith et al., 2020', 'Smith and Lee (2019b)')
or a title / full reference string (title similarity). Anything else resolves to nothing
and is reported unverified: an invented work never borrows a real entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import Field

from papermind.domain import Citation, Paper, Reference
from papermind.domain.base import Frozen
from papermind.grounding.bibliography import Entry, name_key
from papermind.grounding.text import fold

TITLE_MIN_SCORE = 90.0
_LEAD_IN = re.compile(r"^(?:.*\b(?:e\.g\.|i\.e\.|cf\.)|(?:see|also|and|as in)\b)[,\s]*",
                      re.IGNORECASE)
_PARTICLES = {"van", "von", "de", "der", "den", "da", "del", "la", "le", "di", "du"}
_MARKER = re.compile(r"^\[?\s*(\d{1,4})\s*\]?$")
_NUMERIC_LIST = re.compile(r"^\[\s*\d{1,4}(?:\s*[-\u2013,;]\s*\d{1,4})*\s*\]$")
_AUTHOR_YEAR = re.compile(
    r"^\(?\s*(?P<authors>[^\d()]{2,120}?)[\s,]*\(?(?P<year>(?:19|20)\d{2})(?P<suffix>[a-z]?)\)?"
    r"(?:,\s*[^\d()]{1,40})?\)?\s*\.?$")


class ReferenceCheck(Frozen):
    """The verdict on one cited work: the entry it resolves to, or why none."""

    cited: str
    reference: Reference | None = None
    method: str = Field(default="none", description="marker, key, author_year, title or none")
    score: float = Field(default=0.0, description="title similarity in [0, 1] when by title")
    verified: bool = False
    reasons: list[str] = Field(default_factory=list)


class ReferenceResolver:
    """Resolves cited works against one paper's bibliography (built once per paper)."""

    def __init__(self, paper: Paper) -> None:
        self.paper = paper
        self.entries = [Entry.of(ref) for ref in paper.references]
        self.by_key = {ref.key: ref for ref in paper.references}
        self.numeric = bool(paper.references) and all(r.key.isdigit() for r in paper.references)

    def resolve(self, cited: str) -> Reference | None:
        """The bibliography entry ``cited`` denotes, or None (unverified)."""
        return self.check(cited).reference

    def check(self, cited: str) -> ReferenceCheck:
        """Resolve ``cited`` and say how (or why not)."""
        text = " ".join(cited.split())
        if not text:
            return ReferenceCheck(cited=cited, reasons=["empty citation"])
        if not self.entries:
            return ReferenceCheck(cited=cited, reasons=["the paper has no parsed bibliography"])
        for attempt in (self._by_key, self._by_author_year, self._by_title):
            found = attempt(text)
            if found is not None:
                return found.model_copy(update={"cited": cited})
        return ReferenceCheck(cited=cited, reasons=["no entry of the paper's bibliography matches"])

    def resolve_all(self, marker: str) -> list[Reference]:
        """Every entry an in-text marker denotes: '[3, 7-9]' or '(Smith, 2020; Lee, 2019)'."""
        text = " ".join(marker.split())
        if _NUMERIC_LIST.match(text):
            return [self.by_key[k] for k in _numbers(text) if k in self.by_key]
        refs: list[Reference] = []
        for part in re.split(r";", text.strip("()[] ")):
            for cited in _one_per_year(part.strip(" ,")):
                ref = self.resolve(cited)
                if ref is not None and ref not in refs:
                    refs.append(ref)
        return refs

    def citations_for(self, reference_key: str) -> list[Citation]:
        """In-text citations of the paper that point at entry ``reference_key``."""
        return [c for c in self.paper.citations if reference_key in self.keys_of(c)]

    def keys_of(self, citation: Citation) -> list[str]:
        """Entry keys of an in-text citation (the parser's, else resolved from its marker)."""
        if citation.reference_keys:
            return list(citation.reference_keys)
        return [ref.key for ref in self.resolve_all(citation.marker)]

    def _by_key(self, text: str) -> ReferenceCheck | None:
        marker = _MARKER.match(text)
        if marker and self.numeric:
            ref = self.by_key.get(str(int(marker.group(1))))
            return _found(ref, "marker") if ref else None
        ref = self.by_key.get(text)
        return _found(ref, "key") if ref is not None and not text.isdigit() else None

    def _by_author_year(self, text: str) -> ReferenceCheck | None:
        m = _AUTHOR_YEAR.match(text)
        authors = _LEAD_IN.sub("", m.group("authors")) if m else ""
        if not m or not _looks_like_names(authors):
            return None
        names = [name_key(n) for n in _cited_names(authors)]
        if not names or not names[0]:
            return None
        year = int(m.group("year"))
        hits = [e for e in self.entries if e.year == year and e.has_first(names[0])]
        if len(names) > 1 and not _et_al(authors):
            hits = [e for e in hits if e.has_author(names[1])] or hits
        if not hits:
            return None
        suffix = m.group("suffix")
        if suffix and len(hits) > 1:
            index = ord(suffix) - ord("a")
            return _found(hits[index].ref, "author_year") if index < len(hits) else None
        reasons = [f"{len(hits)} entries match; the first is shown"] if len(hits) > 1 else []
        return _found(hits[0].ref, "author_year", reasons=reasons)

    def _by_title(self, text: str) -> ReferenceCheck | None:
        if len(fold(text)) < 12:
            return None
        scored = sorted(((e.title_score(text), e) for e in self.entries), key=lambda x: -x[0])
        score, best = scored[0]
        if score < TITLE_MIN_SCORE:
            return None
        if len(scored) > 1 and scored[1][0] >= score and scored[1][1].title != best.title:
            return None
        years = {int(y) for y in re.findall(r"\b(?:19|20)\d{2}\b", text)}
        if years and best.year is not None and best.year not in years:
            return None
        return _found(best.ref, "title", score=score / 100.0)


def _found(ref: Reference, method: str, *, score: float = 1.0,
           reasons: Iterable[str] = ()) -> ReferenceCheck:
    return ReferenceCheck(cited="", reference=ref, method=method, score=score, verified=True,
                          reasons=list(reasons))


def _cited_names(authors: str) -> list[str]:
    head = re.split(r"\bet\s*al\b", authors)[0]
    parts = re.split(r",|\band\b|&", head)
    return [p.strip(" .") for p in parts if p.strip(" .")]


def _looks_like_names(authors: str) -> bool:
    """'Smith et al.', 'van der Berg and Lee', 'J. Ho, A. Jain': capitalised names only."""
    words = re.sub(r"\bet\s*al\b\.?|\band\b|&|,", " ", authors).split()
    names = [w for w in words if w.lower() not in _PARTICLES and len(w.rstrip(".")) > 1]
    return 0 < len(names) <= 6 and all(w[0].isupper() for w in names)


def _et_al(authors: str) -> bool:
    return re.search(r"\bet\s*al\b", authors) is not None


def _one_per_year(cited: str) -> list[str]:
    """'Smith et al., 2019, 2020a' -> ['Smith et al., 2019', 'Smith et al., 2020a']."""
    cited = re.sub(r"((?:19|20)\d{2})([a-z])((?:\s*,\s*[a-z]\b)+)", _expand_letters, cited)
    years = list(re.finditer(r"(?:19|20)\d{2}[a-z]?", cited))
    if len(years) < 2:
        return [cited]
    authors = cited[:years[0].start()].rstrip(" ,(")
    return [f"{authors}, {y.group()}" for y in years]


def _expand_letters(m: re.Match[str]) -> str:
    """'2017a,b' -> '2017a, 2017b'."""
    letters = [m.group(2), *re.findall(r"[a-z]", m.group(3))]
    return ", ".join(m.group(1) + letter for letter in letters)


def _numbers(marker: str) -> list[str]:
    keys: list[str] = []
    for part in re.split(r"[,;]", marker.strip("[] ")):
        bounds = [b.strip() for b in re.split(r"[-\u2013]", part) if b.strip()]
        if len(bounds) == 2 and 0 <= int(bounds[1]) - int(bounds[0]) <= 50:
            keys.extend(str(k) for k in range(int(bounds[0]), int(bounds[1]) + 1))
        elif bounds:
            keys.append(str(int(bounds[0])))
    return keys
