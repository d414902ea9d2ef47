"""Section headings: numbered ('3.1 Method') and unnumbered ('References'), with levels."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from papermind.domain.paper import SectionKind
from papermind.ingest.layout import FlowLine

_NUMBERED = re.compile(
    r"^(?P<num>(?:\d{1,2}|[A-H])(?:\.\d{1,2}){0,3})(?:\.|:)?\s+(?P<title>[A-Z\u00C0-\u024F(\"'].*)$"
)
_KINDS: list[tuple[str, SectionKind]] = [
    ("abstract", "abstract"), ("introduction", "introduction"), ("related work", "related_work"),
    ("prior work", "related_work"), ("previous work", "related_work"),
    ("background", "related_work"), ("literature", "related_work"),
    ("method", "method"), ("approach", "method"), ("model", "method"), ("algorithm", "method"),
    ("framework", "method"), ("experiment", "experiments"), ("evaluation", "experiments"),
    ("setup", "experiments"), ("result", "results"), ("discussion", "discussion"),
    ("analysis", "discussion"), ("limitation", "discussion"), ("conclusion", "conclusion"),
    ("summary", "conclusion"), ("future work", "conclusion"), ("references", "references"),
    ("bibliography", "references"), ("literature cited", "references"),
    ("appendix", "appendix"), ("supplementary", "appendix"), ("acknowledg", "acknowledgements"),
]
_UNNUMBERED = {
    "abstract", "introduction", "related work", "background", "references", "bibliography",
    "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "appendix",
    "conclusion", "conclusions", "discussion", "methods", "method", "results", "experiments",
    "limitations", "future work", "conclusions and future work", "literature cited",
    "supplementary material", "appendices", "related works", "experimental results",
    "broader impact", "ethics statement", "reproducibility statement", "materials and methods",
}


_ROMAN = re.compile(r"^(?P<num>[IVX]{1,6})\.\s+(?P<title>[A-Z(\"'].*)$")
_LETTER = re.compile(r"^(?P<num>[A-H])\.\s+(?P<title>[A-Z(\"'].*)$")
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10}


def _roman(text: str) -> int:
    values = [_ROMAN_DIGITS[ch] for ch in text]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


@dataclass(slots=True)
class _IeeeState:
    """IEEE-style numbering: 'I. INTRODUCTION' then 'A. Subsection', 'B. ...'."""

    last_roman: int = 0
    next_letter: str | None = None


@dataclass(slots=True)
class Heading:
    """A detected heading line (index into the flow) with its parsed parts."""

    index: int
    title: str
    number: str | None
    level: int
    kind: SectionKind


def section_kind(title: str) -> SectionKind:
    """Coarse role of a section from its title words."""
    low = title.lower()
    for word, kind in _KINDS:
        if word in low:
            return kind
    return "other"


def _plausible_title(title: str) -> bool:
    words = title.split()
    if not words or len(words) > 14 or len(title) > 110:
        return False
    if title.endswith((",", ";", "-")) or sum(ch.isalpha() for ch in title) < 0.6 * len(title.replace(" ", "")):
        return False
    return not re.search(r"\b(19|20)\d\d\b.*\d", title)


def _emphasised(line: FlowLine, body_size: float) -> bool:
    if line.box is None:
        return True  # plain text: layout cues are absent, rely on the pattern alone
    return line.bold or max(line.size, line.peak) > body_size + 0.6


def classify(line: FlowLine, body_size: float, in_appendix: bool) -> Heading | None:
    """A Heading when ``line`` reads as one; index is filled in by the caller."""
    text = line.text.strip()
    if line.heading_level:
        return _markup_heading(text.lstrip("#").strip(), line.heading_level)
    bare = text.rstrip(":.").strip()
    if bare.lower() in _UNNUMBERED and (_emphasised(line, body_size) or bare.isupper()):
        return Heading(0, bare, None, 1, section_kind(bare))
    match = _NUMBERED.match(text)
    if not match:
        return None
    number, title = match["num"], match["title"].strip()
    small_caps = title.isupper() and sum(ch.isalpha() for ch in title) >= 3
    if not (_emphasised(line, body_size) or small_caps):
        return None
    if number[0].isalpha() and not (in_appendix or title.isupper() or line.bold):
        return None
    if not _plausible_title(title) or (title.endswith(".") and len(title.split()) > 6):
        return None
    if number[0].isdigit() and int(number.split(".")[0]) > 30:
        return None
    level = number.count(".") + 1
    return Heading(0, title.rstrip("."), number, level, section_kind(title))


def _ieee(line: FlowLine, body_size: float, state: _IeeeState) -> Heading | None:
    """Roman-numbered sections must count up from I; lettered subsections from A."""
    text = line.text.strip()
    if (match := _ROMAN.match(text)) and _roman(match["num"]) == state.last_roman + 1:
        title = match["title"].strip()
        if _plausible_title(title) and (_emphasised(line, body_size) or title.isupper()):
            state.last_roman, state.next_letter = state.last_roman + 1, "A"
            return Heading(0, title, match["num"], 1, section_kind(title))
    match = _LETTER.match(text)
    if match and state.next_letter == match["num"] and line.size >= body_size - 0.5:
        title = match["title"].strip()
        if _plausible_title(title) and not title.endswith("."):
            state.next_letter = chr(ord(match["num"]) + 1)
            return Heading(0, title, match["num"], 2, section_kind(title))
    return None


def _markup_heading(text: str, level: int) -> Heading:
    match = _NUMBERED.match(text)
    number, title = (match["num"], match["title"]) if match else (None, text)
    return Heading(0, title.strip().rstrip("."), number, max(1, level), section_kind(title))


def _shares_row(lines: Sequence[FlowLine], i: int) -> bool:
    """True when a neighbour sits on the same row (table cells, figure labels)."""
    box = lines[i].box
    if box is None:
        return False
    for j in (i - 1, i + 1):
        other = lines[j].box if 0 <= j < len(lines) and lines[j].page == lines[i].page else None
        if other and min(box[3], other[3]) - max(box[1], other[1]) > 0.5 * (box[3] - box[1]):
            return True
    return False


def find_headings(lines: Sequence[FlowLine], body_size: float,
                  skip: set[int] | None = None) -> list[Heading]:
    """Headings in document order; numbered ones must not go backwards at their level."""
    found: list[Heading] = []
    in_appendix = False
    last_top = 0
    ieee = _IeeeState()
    for i, line in enumerate(lines):
        if skip and i in skip:
            continue
        if line.box is None and not line.heading_level and (
                not line.starts_block or len(line.text) > 90):
            continue
        if _shares_row(lines, i):
            continue
        heading = _ieee(line, body_size, ieee) if line.box is not None else None
        heading = heading or classify(line, body_size, in_appendix)
        if heading is None or (heading.number and heading.number[0].isalpha() and not ieee.last_roman
                               and not (in_appendix or last_top > 0)):
            continue
        if heading.number and heading.number[0].isdigit() and not line.heading_level:
            top = int(heading.number.split(".")[0])
            if top < last_top or top > last_top + 2:
                continue
            last_top = top
        heading.index = i
        in_appendix = in_appendix or heading.kind in ("references", "appendix")
        found.append(heading)
    return found
