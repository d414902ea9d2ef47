"""Outline evidence for headings: the numbering sequence and the font each level uses.

A numbered line is a heading only where its number continues the outline seen so far
("3.2" after "3.1", "4" after "3.2") and its font matches the headings already accepted at
that level; numbered list items in body text ("3. A worker who is assigned ...") fail both.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from papermind.ingest.layout import FlowLine

_MATH_FONT = re.compile(r"^cm(mi|sy|ex|ti|sl|tt)|math|symbol|italic|oblique|^msbm|^msam", re.I)
_FUNCTION_END = {
    "a", "an", "the", "of", "and", "or", "to", "in", "for", "with", "by", "on", "at", "from",
    "is", "are", "was", "were", "be", "that", "which", "where", "using", "via", "as", "its",
    "their", "this", "these", "into", "than", "we", "our", "not",
}


def fragment_title(title: str) -> bool:
    """True when a heading title reads as a cut piece of a sentence, not a title."""
    words = title.split()
    if not words:
        return True
    if words[-1].lower().strip(".,;:") in _FUNCTION_END or title.endswith((",", ";", "-")):
        return True
    if words[0][0].islower() and not re.match(r"^[a-z]+[A-Z]", words[0]):  # 'iPhone' is fine
        return True
    if re.search(r"[=←→≤≥+]|, (where|which|who|that|and then)\b", title):
        return True
    return title.count("(") != title.count(")") or len(words) > 14


def parse_number(number: str) -> tuple[int, ...] | None:
    """(3, 2) for '3.2'; None for lettered numbers ('A', 'B.1')."""
    parts = number.split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def continues(last: tuple[int, ...], num: tuple[int, ...]) -> bool:
    """Whether ``num`` can follow ``last`` in an outline, allowing one missed heading."""
    if not num or num[0] == 0:
        return False
    for j in range(len(num)):
        if num[:j] != last[:j]:
            return False
        step = num[j] - (last[j] if j < len(last) else 0)
        if 1 <= step <= 2 and all(1 <= rest <= 4 for rest in num[j + 1:]):
            return True
        if step != 0:
            return False
    return False


def continues_letter(last: str | None, number: str) -> bool:
    """'A' first, then the next letter ('A.1' may follow 'A')."""
    letter = number[0]
    if last is None:
        return letter == "A"
    return ord(letter) - ord(last) in (1, 2) or (letter == last and "." in number)


@dataclass(slots=True)
class FontEvidence:
    """Body font facts and the (size, bold) style each heading level has shown so far."""

    body_size: float
    body_bold: bool
    body_font: str = ""
    level_style: dict[int, tuple[float, bool]] = field(default_factory=dict)

    def emphasised(self, line: FlowLine) -> bool:
        """Bigger than body text, or bold where body text is not."""
        if line.box is None:
            return True  # plain text: layout cues are absent, rely on the pattern alone
        if max(line.size, line.peak) > self.body_size + 0.6 or (line.bold and not self.body_bold):
            return True
        return bool(line.font and self.body_font and line.font != self.body_font
                    and not _MATH_FONT.search(line.font))

    def lead_emphasised(self, line: FlowLine) -> bool:
        """A run-in heading: the line starts in a bold or other non-body text font."""
        lead = line.lead_font
        return bool(lead and lead != self.body_font and not _MATH_FONT.search(lead))

    def fits_level(self, line: FlowLine, level: int) -> bool:
        """A heading must not be weaker than earlier headings of its level: smaller, or of the
        same size where those were bold and it is not."""
        style = self.level_style.get(level)
        if style is None or line.box is None:
            return True
        size = max(line.size, line.peak)
        if size < style[0] - 0.6:
            return False
        return size > style[0] + 0.6 or line.bold or not style[1]

    def record(self, line: FlowLine, level: int) -> None:
        if line.box is not None:
            self.level_style.setdefault(level, (max(line.size, line.peak), line.bold))

    def body_like(self, line: FlowLine) -> bool:
        return (line.box is not None and abs(line.size - self.body_size) <= 0.6
                and line.bold == self.body_bold and line.font == self.body_font)


def font_evidence(lines: Sequence[FlowLine], body_size: float) -> FontEvidence:
    """Whether most body-size text is bold (then bold is no heading cue), and its font."""
    bold = plain = 0
    fonts: Counter[str] = Counter()
    for line in lines:
        if line.box is not None and abs(line.size - body_size) <= 0.6:
            fonts[line.font] += len(line.text)
            if line.bold:
                bold += len(line.text)
            else:
                plain += len(line.text)
    body_font = fonts.most_common(1)[0][0] if fonts else ""
    return FontEvidence(body_size=body_size, body_bold=bold > plain, body_font=body_font)


def wrapped_continuation(lines: Sequence[FlowLine], i: int, evidence: FontEvidence) -> bool:
    """Whether line ``i + 1`` continues a two-line heading at ``i``: same font, close below,
    short, and either the font stands out or a new block starts right after it."""
    if i + 1 >= len(lines):
        return False
    head, nxt = lines[i], lines[i + 1]
    if head.box is None or nxt.box is None or head.page != nxt.page:
        return False
    close = 0 <= nxt.box[1] - head.box[3] < 0.6 * max(head.height, 1.0)
    same_font = abs(nxt.size - head.size) <= 0.3 and nxt.bold == head.bold
    shape = len(nxt.text.split()) <= 8 and abs(nxt.box[0] - head.box[0]) < 40 and not nxt.text[:1].isdigit()
    block_ends = i + 2 >= len(lines) or lines[i + 2].starts_block
    return close and same_font and shape and (
        evidence.emphasised(head) or (block_ends and not nxt.starts_block))
