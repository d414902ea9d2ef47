"""Acronyms used before their definition, and an acronym defined twice with different
expansions. A definition is any of the forms in ``FORMS`` whose words' initials spell the
acronym: 'Long Form Words (LFW)', 'LFW (long form words)', 'where LFW denotes long form
words', 'LFW stands for ...', 'LFW: long form words' (a glossary, a table row); so only
acronyms the authors define are judged (that is what can be said precisely). A definition in
a footnote or a table counts for its whole page; one that explains a display ('where MLP
denotes ...') counts for the lines just above it; a use inside math is no use."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from papermind.domain.check import CheckFinding
from papermind.grounding.paper_check.spots import Spot, finding

_ACRONYM = r"(?<![\w-])([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)(s?)"
_WORDS = r"([A-Za-z][\w'-]*(?:[ \t]+[A-Za-z][\w'-]*){0,9})"
"""One to ten words, each split from the next by spaces (one way to read them: no
backtracking blow-up on a long line)."""
_DEFINED = re.compile(r"((?:[A-Za-z][\w'-]*\s+){1,10})\(\s*([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)(s?)\s*\)")
"""'Long Form Words (LFW)': the expansion before the acronym."""
FORMS: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("bracketed long form", re.compile(_ACRONYM + r"\s*\(\s*" + _WORDS + r"\s*\)"), 0),
    ("denotes", re.compile(
        r"(?:\\text\{|\\mathrm\{)?" + _ACRONYM + r"\}?\s+(?:denotes|stands\s+for|refers\s+to|"
        r"is\s+short\s+for|is\s+(?:an?\s+)?(?:abbreviation|acronym)\s+(?:of|for)|means)\s+"
        r"(?:an?\s+|the\s+)?" + _WORDS), 3),
    ("glossary", re.compile(_ACRONYM + r"\s*(?::|=|\||–|—)\s*(?:an?\s+|the\s+)?" + _WORDS), 0),
)
"""Forms that give the acronym first and its expansion after it: (name, pattern, how many
lines above the definition it also covers)."""
_ASIDE = re.compile(r"^\s*(?:\d{1,2}\s+[A-Z]|[*∗†‡§¶]\s*\S|(?:table|tab\.)\s*\d)|\|.*\|",
                    re.IGNORECASE)
"""A footnote ('1 We use ...', '∗ ...') or a table line: a definition there counts for its page."""
_MATH = re.compile(r"\$[^$]*\$|\\(?:text|mathrm|operatorname|mathbf)\{[^}]*\}")
_DISPLAY = re.compile(r"\\(?:epsilon|theta|frac|left|right|sum|begin\{(?:equation|align))|[_^]\{")
SAME_WORD = 80
"""rapidfuzz ratio (0-100) at or above which two words of expansions are the same word."""
_STOP = {"of", "the", "and", "for", "a", "an", "in", "on", "to", "with", "by", "via", "from"}
_FRONT_END = re.compile(r"^\s*(?:#+\s*)?(?:\\begin\{abstract\}|abstract\b)", re.IGNORECASE)


@dataclass(frozen=True)
class Definition:
    acronym: str
    expansion: str
    index: int
    covers_from: int
    """The first line (index) the definition counts for."""


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
                          d.covers_from)  # a definition whose words did not parse is one still
        for i in range(start, min(defined_at, d.covers_from)):
            if _prose(spots[i].text) and use.search(_MATH.sub(" ", spots[i].text)):
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
                out.append(Definition(match.group(2), expansion, i, _covers(spots, i, 0)))
        for _, form, above in FORMS:
            for match in form.finditer(spot.text):
                expansion = _leading(match.group(3).split(), match.group(1))
                if expansion:
                    out.append(Definition(match.group(1), expansion, i, _covers(spots, i, above)))
    return sorted(out, key=lambda d: d.covers_from)


def _leading(words: list[str], acronym: str) -> str:
    """The shortest run of leading words whose initials spell ``acronym`` ('multi-layer
    perceptron with sinusoidal embeddings' -> 'multi-layer perceptron'), or ''."""
    for k in range(1, len(words) + 1):
        expansion = _expansion(words[:k], acronym)
        if expansion and expansion.split()[0] == words[0].strip("'\"`,;:"):
            return expansion
    return ""


def _covers(spots: Sequence[Spot], i: int, above: int) -> int:
    """The first line a definition at ``i`` counts for: its page's first line for a footnote
    or table line of a paper, ``above`` lines up for one explaining a display."""
    spot = spots[i]
    if spot.file is None and spot.page and _ASIDE.search(spot.text):
        return next(k for k in range(i + 1) if spots[k].page == spot.page)
    return max(0, i - above)


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
    """A line of running text: not a table row, not a cell or header of a few words, not a
    display equation of a LaTeX source."""
    tokens = text.split()
    words = sum(1 for t in tokens if any(c.isalpha() for c in t))
    return text.count("|") < 2 and len(tokens) >= 5 and words >= 0.6 * len(tokens) \
        and not _DISPLAY.search(text)


def _body_start(spots: Sequence[Spot]) -> int:
    """Index of the abstract's first line (the title block before it may use acronyms)."""
    for i, spot in enumerate(spots[:80]):
        if _FRONT_END.match(spot.text):
            return i
    return 0
