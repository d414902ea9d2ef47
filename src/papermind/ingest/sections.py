"""Section headings: numbered ('3.1 Method') and unnumbered ('References'), with levels."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from papermind.domain.paper import SectionKind
from papermind.i18n.scripts import squeeze_cjk_spaces
from papermind.ingest.cjk_headings import (
    KIND_WORDS,
    CjkHeading,
    heading_styled,
    parse_cjk_heading,
    style_twins,
    unnumbered_kind,
)
from papermind.ingest.layout import FlowLine
from papermind.ingest.outline import (
    FontEvidence,
    continues,
    continues_letter,
    font_evidence,
    fragment_title,
    parse_number,
    wrapped_continuation,
)

_NUMBERED = re.compile(
    r"^(?P<num>(?:\d{1,2}|[A-H])(?:\.\d{1,2}){0,3})(?:\.|:)?\s+(?P<title>[A-Z\u00C0-\u024F(\"'].*)$"
)
_KINDS: list[tuple[str, SectionKind]] = [
    ("abstract", "abstract"), ("introduction", "introduction"), ("related work", "related_work"),
    ("prior work", "related_work"), ("previous work", "related_work"),
    ("background", "related_work"), ("literature cited", "references"), ("works cited", "references"),
    ("literature", "related_work"),
    ("method", "method"), ("approach", "method"), ("model", "method"), ("algorithm", "method"),
    ("framework", "method"), ("experiment", "experiments"), ("evaluation", "experiments"),
    ("setup", "experiments"), ("result", "results"), ("discussion", "discussion"),
    ("analysis", "discussion"), ("limitation", "discussion"), ("conclusion", "conclusion"),
    ("summary", "conclusion"), ("future work", "conclusion"), ("references", "references"),
    ("bibliography", "references"),
    ("appendix", "appendix"), ("supplementary", "appendix"), ("acknowledg", "acknowledgements"),
    *KIND_WORDS,
]
_UNNUMBERED = {
    "abstract", "introduction", "related work", "background", "references", "bibliography",
    "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "appendix",
    "conclusion", "conclusions", "discussion", "methods", "method", "results", "experiments",
    "limitations", "future work", "conclusions and future work", "literature cited", "works cited",
    "references and notes", "cited literature",
    "supplementary material", "appendices", "related works", "experimental results",
    "broader impact", "ethics statement", "reproducibility statement", "materials and methods",
}


_ROMAN = re.compile(r"^(?P<num>[IVX]{1,6})\.\s+(?P<title>[A-Z(\"'].*)$")
_LETTER = re.compile(r"^(?P<num>[A-H])\.\s+(?P<title>[A-Z(\"'].*)$")
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10}


def is_section_name(text: str) -> bool:
    """'Abstract', '1 Introduction', 'IV. Results', '摘要': a section's name, never a paper's
    title or an author."""
    bare = text.strip().lstrip("#").strip().rstrip(":.").strip()
    if bare.lower() in _UNNUMBERED or unnumbered_kind(bare) is not None:
        return True
    return _SECTION_NUMBER.match(bare) is not None or bare.lower().startswith("abstract")


_SECTION_NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-H]\.(?:\d{1,2}\.?)*|[IVX]{1,6}\.)\s+\S")
"""'1 Introduction', '3.2. Setup', 'A.1 Proofs', 'IV. Results' (not 'A Statistical Parser')."""


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
    run_in: bool = False  # the line goes on with body text after the title
    extra: list[int] = field(default_factory=list)  # flow indices of wrapped title lines
    checked: bool = False  # numbering already checked (IEEE roman/letter sequence)


def section_kind(title: str) -> SectionKind:
    """Coarse role of a section from its title words."""
    low = title.lower()
    for word, kind in _KINDS:
        if word in low:
            return kind
    return "other"


def _plausible_title(title: str) -> bool:
    words = title.split()
    if not words or len(words) > 14 or len(title) > 110 or fragment_title(title):
        return False
    if sum(ch.isalpha() for ch in title) < 0.6 * len(title.replace(" ", "")):
        return False
    return not re.search(r"\b(19|20)\d\d\b.*\d", title)


_RUN_IN = re.compile(r"^(?P<title>[^.]{3,80}?[a-zA-Z)])\.\s+(?P<rest>[A-Z][a-z].{8,})$")


def _run_in(title: str) -> tuple[str, bool]:
    """'Preprocessing the Input. We say that ...' -> ('Preprocessing the Input', True)."""
    match = _RUN_IN.match(title)
    return (match["title"], True) if match and len(match["title"].split()) <= 10 else (title, False)


_MINOR = {"a", "an", "the", "of", "and", "or", "to", "in", "for", "with", "by", "on", "at", "from", "via"}


def _title_case(title: str) -> bool:
    """'Preprocessing the Input Instance': every word but the minor ones capitalised."""
    words = [w for w in title.split() if w.lower() not in _MINOR]
    return len(words) >= 2 and all(w[0].isupper() for w in words)


def classify(line: FlowLine, evidence: FontEvidence, in_appendix: bool,
             short: bool = False) -> Heading | None:
    """A Heading when ``line`` reads as one; index is filled in by the caller. ``short``: the
    line is a short one that starts a block (a Chinese subsection in body font may be one)."""
    text = line.text.strip()
    if line.heading_level:
        return _markup_heading(text.lstrip("#").strip(), line.heading_level)
    bare = text.strip("*_ ").rstrip(":.").strip()  # '**References**' of converted Markdown
    if bare.lower() in _UNNUMBERED and (evidence.emphasised(line) or bare.isupper()):
        return Heading(0, bare, None, 1, section_kind(bare))
    if (kind := unnumbered_kind(bare)) is not None and heading_styled(line, evidence):
        return Heading(0, squeeze_cjk_spaces(bare), None, 1, kind)
    if (cjk := parse_cjk_heading(text)) is not None:
        return _cjk(cjk, line, evidence, short)
    match = _NUMBERED.match(text)
    if not match:
        return None
    number, (title, run_in) = match["num"], _run_in(match["title"].strip())
    small_caps = title.isupper() and sum(ch.isalpha() for ch in title) >= 3
    lead = run_in and (evidence.lead_emphasised(line) or _title_case(title))
    if not (evidence.emphasised(line) or small_caps or lead):
        return None
    if number[0].isalpha() and not (in_appendix or title.isupper() or line.bold):
        return None
    if not _plausible_title(title) or (title.endswith(".") and len(title.split()) > 6):
        return None
    if number[0].isdigit() and int(number.split(".")[0]) > 30:
        return None
    level = number.count(".") + 1
    return Heading(0, title.rstrip("."), number, level, section_kind(title), run_in=run_in)


def _cjk(parsed: CjkHeading, line: FlowLine, evidence: FontEvidence,
         short: bool) -> Heading | None:
    """A Chinese-form heading when its font stands out (or it is a short dotted-number line
    that starts a block: some journals set subsections in body font) and its title reads
    as one. Numbered ones must still continue the outline."""
    title = parsed.title
    plain = short and parsed.number is not None and "." in parsed.number and len(title) <= 24
    if not (heading_styled(line, evidence) or plain) or len(title) > 60 or fragment_title(title):
        return None
    if re.search(r"[,，。;；]", title) or title.endswith(("、", ":", "：")):
        return None  # a sentence, not a heading
    return Heading(0, title, parsed.number, parsed.level, section_kind(title),
                   checked=parsed.number is None)


def _ieee(line: FlowLine, evidence: FontEvidence, state: _IeeeState) -> Heading | None:
    """Roman-numbered sections must count up from I; lettered subsections from A."""
    text = line.text.strip()
    if (match := _ROMAN.match(text)) and _roman(match["num"]) == state.last_roman + 1:
        title = match["title"].strip()
        if _plausible_title(title) and (evidence.emphasised(line) or title.isupper()):
            state.last_roman, state.next_letter = state.last_roman + 1, "A"
            return Heading(0, title, match["num"], 1, section_kind(title), checked=True)
    match = _LETTER.match(text)
    if match and state.next_letter == match["num"] and line.size >= evidence.body_size - 0.5:
        title = match["title"].strip()
        if _plausible_title(title) and not title.endswith("."):
            state.next_letter = chr(ord(match["num"]) + 1)
            return Heading(0, title, match["num"], 2, section_kind(title), checked=True)
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


@dataclass(slots=True)
class _Outline:
    """Numbering seen so far: digits, the last letter heading, the appendix flag."""

    evidence: FontEvidence
    last: tuple[int, ...] = ()
    letter: str | None = None
    in_appendix: bool = False
    ieee: _IeeeState = field(default_factory=_IeeeState)

    def accepts(self, heading: Heading, line: FlowLine) -> bool:
        """Numbering continues the outline and the font fits the level; updates the state."""
        if heading.checked or not heading.number or line.heading_level:
            return True
        if not self.evidence.fits_level(line, heading.level):
            return False
        num = parse_number(heading.number)
        if num is None:
            if (self.ieee.last_roman and not self.in_appendix) or not continues_letter(
                    self.letter, heading.number):
                return False
            self.letter = heading.number[0]
        elif not continues(self.last, num) or (self.in_appendix and not self.last):
            return False
        else:
            self.last = num
        self.evidence.record(line, heading.level)
        return True


def _candidate(lines: Sequence[FlowLine], i: int, outline: _Outline) -> Heading | None:
    """The heading at line ``i``, trying a two-line (wrapped) title first."""
    line = lines[i]
    if wrapped_continuation(lines, i, outline.evidence) and classify(
            lines[i + 1], outline.evidence, outline.in_appendix) is None:
        joined = FlowLine(page=line.page, text=f"{line.text} {lines[i + 1].text}", box=line.box,
                          size=line.size, peak=line.peak, bold=line.bold)
        heading = _single(joined, outline)
        if heading is not None:
            heading.extra = [i + 1]
            return heading
    heading = _single(line, outline, _short_block_start(lines, i))
    if heading and heading.number and not heading.run_in and _list_item(lines, i, outline.evidence):
        return None
    return heading


def _single(line: FlowLine, outline: _Outline, short: bool = False) -> Heading | None:
    heading = _ieee(line, outline.evidence, outline.ieee) if line.box is not None else None
    return heading or classify(line, outline.evidence, outline.in_appendix, short)


def _short_block_start(lines: Sequence[FlowLine], i: int) -> bool:
    """A line that starts a block and is under 70% as wide as the line after it, or is a
    block of its own (the next line starts one too)."""
    line, nxt = lines[i], lines[i + 1] if i + 1 < len(lines) else None
    if nxt is None or line.box is None or nxt.box is None or nxt.page != line.page:
        return False
    width, next_width = line.box[2] - line.box[0], nxt.box[2] - nxt.box[0]
    return line.starts_block and (width < 0.7 * next_width or nxt.starts_block)


def _list_item(lines: Sequence[FlowLine], i: int, evidence: FontEvidence) -> bool:
    """A numbered line in body font whose sentence runs on into the next line."""
    line, nxt = lines[i], lines[i + 1] if i + 1 < len(lines) else None
    if nxt is None or line.box is None or nxt.starts_block or not nxt.text[:1].islower():
        return False
    return evidence.body_like(line) and evidence.body_like(nxt)


def _author_initial(heading: Heading) -> bool:
    """A reference entry that reads as a lettered run-in heading: 'A. Sagar. Aa3dnet: ...',
    'A. Sagar and R. Soundrapandiyan. Semantic ...' (an initial, a short name, a period)."""
    number = heading.number or ""
    return heading.run_in and len(number) == 1 and number.isalpha() \
        and len(heading.title.split()) <= 4


def _repeated_abstract(heading: Heading, found: Sequence[Heading]) -> bool:
    """A second 'ABSTRACT' (a scan's running head, a repeated line): one abstract section per
    name ('摘要' and 'Abstract' of a Chinese paper are two)."""
    return heading.kind == "abstract" and any(
        h.kind == "abstract" and h.title.casefold() == heading.title.casefold() for h in found)


def find_headings(lines: Sequence[FlowLine], body_size: float,
                  skip: set[int] | None = None) -> list[Heading]:
    """Headings in document order; numbered ones must continue the outline's numbering."""
    found: list[Heading] = []
    outline = _Outline(font_evidence(lines, body_size))
    taken: set[int] = set()
    for i, line in enumerate(lines):
        if (skip and i in skip) or i in taken:
            continue
        if line.box is None and not line.heading_level and (
                not line.starts_block or len(line.text) > 90):
            continue
        if _shares_row(lines, i):
            continue
        heading = _candidate(lines, i, outline)
        if heading is None or (found and found[-1].kind == "references"
                               and _author_initial(heading)):
            continue
        if not outline.accepts(heading, line) or _repeated_abstract(heading, found):
            continue
        if heading.kind == "abstract" and not outline.in_appendix:
            found = [h for h in found if not h.number]  # numbered lines above the abstract
            outline.last, outline.letter = (), None
        heading.index = i
        taken.update(heading.extra)
        outline.in_appendix = outline.in_appendix or heading.kind in ("references", "appendix")
        found.append(heading)
    return _with_style_twins(lines, found, outline.evidence)


def _with_style_twins(lines: Sequence[FlowLine], found: list[Heading],
                      evidence: FontEvidence) -> list[Heading]:
    """``found`` plus the Chinese lines set like a numbered Chinese heading (``style_twins``)."""
    twins = [Heading(i, text, None, level, section_kind(text)) for i, text, level in
             style_twins(lines, found, evidence.body_size, lambda i: _shares_row(lines, i))]
    return sorted([*found, *twins], key=lambda h: h.index)
