"""Group flow lines into paragraphs, display equations and table/figure captions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from papermind.ingest.layout import FlowLine

BlockKind = Literal["paragraph", "equation", "caption"]

_CAPTION = re.compile(
    r"^(?P<kind>figure|fig\.|table|tab\.)\s*(?P<label>[0-9]+[a-z]?|[IVX]+|[A-Z]\.?\d+)\s*[:.|—–-]",
    re.IGNORECASE,
)
_EQ_LABEL = re.compile(r"\(\s*(?P<label>[A-Z]?\d{1,3}(?:\.\d{1,3})?[a-z]?)\s*\)$")
_MATH = set("=≤≥<>∑∏∫∈∉⊂⊆∀∃→←↦∞∂∇√∼≈≡⊙⊗⊕×·±‖|^_{}αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ")
_WORD = re.compile(r"[A-Za-z]{3,}")


@dataclass(slots=True)
class BlockDraft:
    """Lines of one block before it becomes a domain object."""

    kind: BlockKind
    section_id: str | None
    lines: list[FlowLine] = field(default_factory=list)
    label: str | None = None
    caption_kind: Literal["figure", "table"] = "figure"


def caption_start(text: str) -> tuple[Literal["figure", "table"], str] | None:
    """('table', '2') when ``text`` opens a caption such as 'Table 2: ...'."""
    match = _CAPTION.match(text)
    if not match:
        return None
    kind: Literal["figure", "table"] = "table" if match["kind"].lower().startswith("tab") else "figure"
    return kind, match["label"]


def _margin_label(line: FlowLine) -> bool:
    """The line ends with '(N)' set apart by a gap, as equation numbers are, or is only that."""
    if _EQ_LABEL.fullmatch(line.text.strip()):
        return True
    return len(line.pieces) >= 2 and _EQ_LABEL.fullmatch(line.pieces[-1][0].strip()) is not None


def _math_fragment(line: FlowLine) -> bool:
    """A short piece of a display (sub/superscript row) with no prose words."""
    return len(line.text) <= 40 and not _prose_tokens(line.text) and not line.text.rstrip().endswith((".", ":"))


def _prose_tokens(text: str) -> int:
    """Standalone lower-case words ('where', 'the'), not identifiers inside math."""
    return sum(t.isascii() and t.isalpha() and t.islower() and len(t) > 3 for t in text.split())


def equation_label(line: FlowLine, continuing: bool = False) -> tuple[bool, str | None]:
    """Whether ``line`` reads as a display equation, and its printed number if any.

    ``continuing``: the previous line was an unnumbered equation line, so a short line that
    ends with a label closes that equation.
    """
    text = line.text.strip()
    if len(text) > 160 or len(text) < 2:
        return False, None
    label_match = _EQ_LABEL.search(text)
    if continuing and label_match and len(text) < 80 and not text.endswith("."):
        return True, label_match["label"]
    body = text[: label_match.start()] if label_match else text
    math = sum(ch in _MATH for ch in body)
    words = _WORD.findall(body)
    prose = sum(1 for w in words if w.islower() and len(w) > 3)
    tokens = max(1, len(body.split()))
    if line.box is None:  # plain text: need a label and clear math
        ok = bool(label_match) and math >= 1 and prose <= 3
        return ok, label_match["label"] if ok and label_match else None
    if label_match and math >= 1 and prose <= max(2, tokens // 3):
        return True, label_match["label"]
    if label_match and _prose_tokens(body) <= 2 and _margin_label(line):
        return True, label_match["label"]  # 't , t) (4)': the tail of a display set in pieces
    ok = math >= 2 and prose <= tokens // 4 and "=" in body and not body.rstrip().endswith(".")
    return ok, None


def _pull_fragments(current: BlockDraft | None) -> list[FlowLine]:
    """Math fragments ending the current paragraph from where a new block started (a
    display's sub/superscript rows) belong to the numbered equation that follows."""
    if current is None or current.kind != "paragraph":
        return []
    lines = current.lines
    for k in range(len(lines) - 1, max(-1, len(lines) - 6), -1):
        if not _math_fragment(lines[k]):
            return []
        if lines[k].starts_block:
            pulled, current.lines = lines[k:], lines[:k]
            return pulled
    return []


def split_blocks(lines: Sequence[FlowLine], section_of: Sequence[str | None],
                 skip: set[int]) -> list[BlockDraft]:
    """Blocks in reading order; ``skip`` holds indices consumed elsewhere (headings, title)."""
    drafts: list[BlockDraft] = []
    current: BlockDraft | None = None
    for i, line in enumerate(lines):
        if i in skip or not line.text:
            current = None if i in skip else current
            continue
        section = section_of[i]
        cap = caption_start(line.text)
        continuing = current is not None and current.kind == "equation" and current.label is None
        is_eq, label = equation_label(line, continuing) if cap is None else (False, None)
        if cap is not None:
            current = BlockDraft("caption", section, label=cap[1], caption_kind=cap[0])
            drafts.append(current)
        elif is_eq:
            if not continuing or current is None:
                pulled = _pull_fragments(current) if label else []
                if pulled and current is not None and not current.lines:
                    drafts.remove(current)  # the 'paragraph' was only the display's top rows
                current = BlockDraft("equation", section, lines=pulled)
                drafts.append(current)
            current.label = label
        elif (current is None or current.kind == "equation" or line.starts_block
              or current.section_id != section):
            current = BlockDraft("paragraph", section)
            drafts.append(current)
        current.lines.append(line)
    return drafts
