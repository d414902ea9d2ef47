"""Markdown front matter (papers converted from PDF, e.g. by Docling).

The title is the first heading that is not a section name, after any run of line numbers
('22', '23', ...) a converted submission starts with; the lines from there to the first
section ('## Abstract', '## 1 Introduction') hold the authors. A converter often makes each
author's name a heading: those headings are names, never sections, and a section name is
never an author.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.ingest.author_names import starts_with_number_mark
from papermind.ingest.layout import FlowLine
from papermind.ingest.metadata import (
    AFFILIATION,
    NOT_TITLE,
    FrontMatter,
    clean_title,
    split_authors,
    weak_title,
)
from papermind.ingest.sections import is_section_name

_HEADING = re.compile(r"^#{1,6}\s+")
_MARGIN_NUMBERS = re.compile(r"^(?:0\d{2}\s+)+(?=\S)")
_LINE_NUMBERS = re.compile(r"^(?:\d{1,4}[\s.,]*)+$")
_NOISE = re.compile(r"^(?:<!--.*-->|!\[.*\]\(.*\)|[-*_=]{3,}|\|.*\|)$")
_REACH = 60
"""How many lines past the title the author block may run."""


def _bare(line: FlowLine) -> str:
    """The line without heading marks or the zero-led margin numbers ('054 ') a converted
    line-numbered submission may glue to it."""
    return _MARGIN_NUMBERS.sub("", _HEADING.sub("", line.text).strip())


def _heading(line: FlowLine) -> bool:
    return bool(line.heading_level) or _HEADING.match(line.text) is not None


def _filler(text: str) -> bool:
    """Nothing to read: blank, a run of line numbers, an image or comment, a rule."""
    return not text or bool(_LINE_NUMBERS.match(text)) or bool(_NOISE.match(text))


def _title_index(lines: Sequence[FlowLine]) -> tuple[int | None, bool]:
    """(index of the title line, whether it is a heading). The first heading that is not a
    section name; without one before the first section, the first line of text."""
    first_text: int | None = None
    for i, line in enumerate(lines[:_REACH * 2]):
        text = _bare(line)
        if _filler(text):
            continue
        if _heading(line):
            if is_section_name(text):
                break
            if sum(ch.isalpha() for ch in text) >= 4:
                return i, True
        elif first_text is None and not NOT_TITLE.match(text) and len(text.split()) <= 30:
            first_text = i
    return first_text, False


_OPEN_END = re.compile(r"(?:\b(?:a|an|the|of|for|and|or|with|in|on|to|via|from|by|at)|[:\-–—,])$",
                       re.IGNORECASE)
"""A title line that cannot end a title: 'Understanding and Improving Fast Adversarial
Training against', 'Towards Robust Models:'."""


def _title_lines(lines: Sequence[FlowLine], first: int) -> list[int]:
    """The title heading and the next heading when a converter split the title in two: the
    first ends open ('... for', '...:') or the second starts in lower case."""
    nxt = next((i for i in range(first + 1, min(len(lines), first + 6))
                if not _filler(_bare(lines[i]))), None)
    if nxt is None or not _heading(lines[nxt]) or is_section_name(_bare(lines[nxt])):
        return [first]
    text = _bare(lines[nxt])
    if text[:1].islower() or (_OPEN_END.search(_bare(lines[first])) and not split_authors(text)):
        return [first, nxt]
    return [first]


def _starts_body(line: FlowLine, text: str) -> bool:
    return (_heading(line) and is_section_name(text)) or text.lower().startswith("abstract")


def markdown_front(lines: Sequence[FlowLine]) -> tuple[FrontMatter, bool]:
    """The front matter of Markdown lines and whether the title is a heading (else it is only
    the first line of text: a guess)."""
    meta = FrontMatter()
    first, is_heading = _title_index(lines)
    if first is None:
        meta.weak = "no title before the first section"
        return meta, False
    meta.title_lines = _title_lines(lines, first) if is_heading else [first]
    meta.title = clean_title(" ".join(_bare(lines[i]) for i in meta.title_lines))
    meta.weak = weak_title(meta.title, [], 0.0)
    if meta.weak is not None:
        meta.title_lines = []
        return meta, False
    for i in range(meta.title_lines[-1] + 1, min(len(lines), first + _REACH)):
        line, text = lines[i], _bare(lines[i])
        if _filler(text):
            continue
        if _starts_body(line, text):
            break
        if starts_with_number_mark(text) or AFFILIATION.match(text):
            meta.author_lines.append(i)  # '1 Michigan State University 2 Amazon'
            continue
        names = split_authors(text)
        if names:
            meta.add_authors(names)
            meta.author_lines.append(i)
        elif AFFILIATION.search(text):
            meta.author_lines.append(i)
        elif _heading(line) or (meta.authors and len(text.split()) > 12):
            break
    return meta, is_heading
