"""Acronyms used before their definition, and an acronym defined twice with different
expansions. A definition is 'Long Form Words (LFW)' whose words' initials spell the acronym,
so only acronyms the authors define are judged (that is what can be said precisely)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from papermind.domain.check import CheckFinding
from papermind.grounding.paper_check.spots import Spot, finding

_DEFINED = re.compile(r"((?:[A-Za-z][\w'-]*\s+){1,10})\(\s*([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)(s?)\s*\)")
SAME_WORD = 80
"""rapidfuzz ratio (0-100) at or above which two words of expansions are the same word."""
_STOP = {"of", "the", "and", "for", "a", "an", "in", "on", "to", "with", "by", "via", "from"}
_FRONT_END = re.compile(r"^\s*(?:#+\s*)?(?:\\begin\{abstract\}|abstract\b)", re.IGNORECASE)


@dataclass(frozen=True)
class Definition:
    acronym: str
    expansion: str
    index: int


def acronym_findings(spots: Sequence[Spot]) -> list[CheckFinding]:
    """Acronyms used (after the title block) before they are defined; acronyms defined twice
    with different expansions."""
    definitions = _definitions(spots)
    first: dict[str, Definition] = {}
    out = []
    for d in definitions:
        earlier = first.setdefault(d.acronym, d)
        if earlier is not d and not _same(earlier.expansion, d.expansion):
            out.append(finding("acronym_redefined", "low", "presentation",
                               f"{d.acronym} is defined as '{d.expansion}' here but as "
                               f"'{earlier.expansion}' before", spots[d.index],
                               fix="use one expansion throughout"))
    start = _body_start(spots)
    for acronym, d in first.items():
        use = re.compile(rf"(?<![\w(-]){re.escape(acronym)}s?(?![\w-])")
        bracketed = re.compile(rf"\(\s*{re.escape(acronym)}s?\s*\)")
        defined_at = next((i for i in range(start, d.index) if bracketed.search(spots[i].text)),
                          d.index)  # a definition whose words did not parse is one still
        for i in range(start, defined_at):
            if _prose(spots[i].text) and use.search(spots[i].text):
                out.append(finding("acronym_before_definition", "low", "presentation",
                                   f"{acronym} is used before it is defined "
                                   f"('{d.expansion} ({acronym})' comes later)", spots[i],
                                   fix=f"define {acronym} at its first use"))
                break
    return out


def _definitions(spots: Sequence[Spot]) -> list[Definition]:
    out = []
    for i, spot in enumerate(spots):
        before = spots[i - 1].text + " " if i else ""
        text = before + spot.text
        for match in _DEFINED.finditer(text):
            if match.start(2) < len(before):
                continue  # the previous line's
            expansion = _expansion(match.group(1).split(), match.group(2))
            if expansion:
                out.append(Definition(match.group(2), expansion, i))
    return out


def _expansion(words: list[str], acronym: str) -> str:
    """The trailing words whose initials (stop words skipped, hyphen parts counted) spell
    ``acronym``, or ''."""
    letters = [c.lower() for c in acronym if c.isalpha() and c.isupper()]
    if len(letters) < 2:
        return ""
    taken: list[str] = []
    need = list(letters)
    for word in reversed(words):
        clean = word.strip("'\"`,;:")
        if not need:
            break
        if clean.lower() in _STOP and taken:
            taken.insert(0, clean)
            continue
        parts = [p for p in clean.split("-") if p and (p.lower() not in _STOP or len(need) == 1)]
        initials = [p[0].lower() for p in parts]
        if initials and need[-len(initials):] == initials:
            need = need[:-len(initials)]
        elif parts and need[-1] == parts[0][0].lower():
            need.pop()
        else:
            return ""
        taken.insert(0, clean)
    return " ".join(taken) if not need else ""


def _same(a: str, b: str) -> bool:
    """Two expansions name the same thing: word by word alike, up to plurals, extraction
    debris ('De_scent') and one-letter typos ('Federatedd'); 'Labeling' is not 'Learning'."""
    wa, wb = _words(a), _words(b)
    return len(wa) == len(wb) and all(fuzz.ratio(x, y) >= SAME_WORD for x, y in zip(wa, wb, strict=True))


def _words(expansion: str) -> list[str]:
    words = (re.sub(r"[^a-z]", "", w.lower()) for w in re.split(r"[\s-]+", expansion))
    return [w.rstrip("s") for w in words if w and w not in _STOP]


def _prose(text: str) -> bool:
    """A line of running text: not a table row, not a cell or header of a few words."""
    return text.count("|") < 2 and len(text.split()) >= 5


def _body_start(spots: Sequence[Spot]) -> int:
    """Index of the abstract's first line (the title block before it may use acronyms)."""
    for i, spot in enumerate(spots[:80]):
        if _FRONT_END.match(spot.text):
            return i
    return 0
