"""Parse a model's target ('Table 2', 'Sec. 3.1', 'Eq. (4)', 'p. 5, l. 10-12') and find it."""

from __future__ import annotations

import re

from papermind.domain import Anchor, Paper
from papermind.domain.review import Target

_TABLE = re.compile(r"\btab(?:le|\.)?\s*(\w+)", re.I)
_FIGURE = re.compile(r"\bfig(?:ure|\.)?\s*(\w+)", re.I)
_EQUATION = re.compile(r"\beq(?:uation|n|\.)?\s*\(?(\w+)\)?", re.I)
_SECTION = re.compile(r"(?:\bsec(?:tion|\.)?\s*|§\s*)(\d+(?:\.\d+)*)", re.I)
_PAGE_LINE = re.compile(r"\bp(?:age|\.)?\s*(\d+)\s*,?\s*l(?:ines?|l?\.)?\s*(\d+)(?:\s*[-–]\s*(\d+))?",
                        re.I)


def resolve_target(paper: Paper, label: str) -> Target:
    """A Target whose anchor is set when code finds the element in ``paper``."""
    label = " ".join(label.split())[:120]
    if not label:
        return Target()
    for kind, pattern in (("table", _TABLE), ("figure", _FIGURE)):
        match = pattern.search(label)
        if match:
            return Target(kind=kind, label=label, anchor=_caption(paper, kind, match.group(1)))
    match = _EQUATION.search(label)
    if match:
        return Target(kind="equation", label=label, anchor=_equation(paper, match.group(1)))
    match = _PAGE_LINE.search(label)
    if match:
        return Target(kind="page_line", label=label, anchor=_lines(paper, *match.groups()))
    return Target(kind="section", label=label, anchor=_section(paper, label))


def _caption(paper: Paper, kind: str, number: str) -> Anchor | None:
    for caption in paper.captions:
        if caption.kind == kind and caption.label == number and caption.first:
            return _block_anchor(paper, caption.first.page, caption.first.line,
                                 caption.last.line if caption.last else caption.first.line)
    return None


def _equation(paper: Paper, number: str) -> Anchor | None:
    for equation in paper.equations:
        if equation.label == number and equation.first:
            return _block_anchor(paper, equation.first.page, equation.first.line,
                                 equation.last.line if equation.last else equation.first.line)
    return None


def _section(paper: Paper, label: str) -> Anchor | None:
    match = _SECTION.search(label)
    wanted = label.lower()
    for section in paper.sections:
        if (match and section.number == match.group(1)) or (
                not match and section.title and section.title.lower() in wanted):
            return _block_anchor(paper, section.page, section.line, section.line)
    return None


def _lines(paper: Paper, page: str, start: str, end: str | None) -> Anchor | None:
    number, first = int(page), int(start)
    last = int(end) if end else first
    if not 1 <= number <= len(paper.pages):
        return None
    count = len(paper.page(number).lines)
    if not 1 <= first <= last <= count:
        return None
    return _block_anchor(paper, number, first, last)


def _block_anchor(paper: Paper, page: int, start: int, end: int) -> Anchor:
    return Anchor(paper_id=paper.id, page=page, line_start=start, line_end=max(start, end))
