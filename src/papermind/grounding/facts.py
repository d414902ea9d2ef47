"""What a paper contains that claims may point at: tables, figures, sections, equations.

Built once per paper (cached) from the parsed structure, with the flow text as a fallback
for what the parser missed: a caption line 'Table 3: ...' or a mention 'Eq. (5)' is
evidence enough that the item exists.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from papermind.domain import Line, Paper
from papermind.grounding.text import compact

_TEXT_PATTERNS: dict[str, re.Pattern[str]] = {
    "table": re.compile(r"\bTab(?:le|\.)\s*([A-Z]?\d+(?:-\d+)?)", re.IGNORECASE),
    "figure": re.compile(r"\bFig(?:ure|\.)?\s*([A-Z]?\d+(?:-\d+)?)", re.IGNORECASE),
    "section": re.compile(r"(?:\bSections?|\bSec\.|\u00a7)\s*(\d+(?:\.\d+)*)", re.IGNORECASE),
    "appendix": re.compile(r"\bAppendix\s+([A-Z](?:\.\d+)*)\b"),
    "equation": re.compile(r"(?:\bEquations?|\bEqs?\.|\bEqn\.?)\s*\(?(\d+)\)?", re.IGNORECASE),
}
_HEADING = re.compile(r"^((?:\d+|[A-Z])(?:\.\d+)*)\.?\s+[A-Z]")
_EQUATION_LABEL = re.compile(r"\((\d+)\)\s*$")
_CACHE: OrderedDict[tuple[int, str], tuple[Paper, PaperFacts]] = OrderedDict()


class PaperFacts:
    """Labels of the paper's tables, figures, sections, appendices and equations."""

    def __init__(self, paper: Paper) -> None:
        self.lines: list[Line] = list(paper.lines())
        self.position = {(line.page, line.n): i for i, line in enumerate(self.lines)}
        self.labels: dict[str, set[str]] = {kind: set() for kind in _TEXT_PATTERNS}
        for caption in paper.captions:
            if caption.label:
                self.labels[caption.kind].add(caption.label)
        for section in paper.sections:
            if section.number:
                kind = "appendix" if section.number[0].isalpha() else "section"
                self.labels[kind].add(section.number)
        self.labels["equation"].update(e.label for e in paper.equations if e.label)
        for line in self.lines:
            self._scan(line.text)
        self._compact = compact(" ".join(line.text for line in self.lines))

    def _scan(self, text: str) -> None:
        for kind, pattern in _TEXT_PATTERNS.items():
            self.labels[kind].update(m.group(1) for m in pattern.finditer(text))
        heading = _HEADING.match(text)
        if heading and len(text) < 90:
            label = heading.group(1)
            kind = "appendix" if label[0].isalpha() else "section"
            self.labels[kind].add(label)
        eq = _EQUATION_LABEL.search(text)
        if eq:
            self.labels["equation"].add(eq.group(1))

    def has(self, kind: str, label: str) -> bool:
        """True when the paper has the item (a section '3' also exists when '3.1' does)."""
        labels = self.labels.get(kind, set())
        if label in labels:
            return True
        return kind in {"section", "appendix"} and any(x.startswith(label + ".") for x in labels)

    def mentions(self, word: str) -> bool:
        """True when the paper's flow text contains ``word`` (comparison keys, any case)."""
        key = compact(word)
        return bool(key) and key in self._compact

    def context(self, page: int, line_start: int, page_end: int, line_end: int,
                radius: int = 3) -> str:
        """Flow text from ``radius`` lines before the span to ``radius`` lines after it."""
        a = self.position.get((page, line_start))
        b = self.position.get((page_end, line_end))
        if a is None or b is None:
            return ""
        lo, hi = max(0, a - radius), min(len(self.lines), b + radius + 1)
        return "\n".join(line.text for line in self.lines[lo:hi])


def references_in(text: str) -> list[tuple[str, str]]:
    """(kind, label) of every table / figure / section / appendix / equation mention."""
    found: list[tuple[str, str]] = []
    for kind, pattern in _TEXT_PATTERNS.items():
        found.extend((kind, m.group(1)) for m in pattern.finditer(text))
    return found


def facts_of(paper: Paper) -> PaperFacts:
    """Cached PaperFacts for ``paper`` (a few papers are kept)."""
    key = (id(paper), paper.id)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit[1]
    facts = PaperFacts(paper)
    _CACHE[key] = (paper, facts)  # holding the paper keeps id(paper) unique while cached
    while len(_CACHE) > 8:
        _CACHE.popitem(last=False)
    return facts
