"""A paper as the reader's parts: sections of items (paragraph sentences, equations,
captions), each sentence with the flow lines it lies on, and how a selection is shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from papermind.domain import Block, Caption, Equation, LineRef, Paper

ItemKind = Literal["text", "equation", "caption"]
_ABBREV = {"e.g.", "i.e.", "al.", "fig.", "figs.", "eq.", "eqs.", "sec.", "tab.", "vs.",
           "cf.", "resp.", "approx.", "no.", "etc.", "ref.", "refs.", "dr.", "prof.", "st."}
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[\"'])|(?<=[\u3002\uff01\uff1f])\s*(?=\S)")


def clean_text(text: str) -> str:
    """Join UTF-16 surrogate pairs a PDF library may leave behind; replace lone ones."""
    if not re.search("[\ud800-\udfff]", text):
        return text
    try:
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``, verbatim (abbreviations such as 'et al.' do not split)."""
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        before = text[start:match.start()].rsplit(None, 1)
        last_word = before[-1].lower() if before else ""
        if last_word in _ABBREV or re.fullmatch(r"[a-z]\.|\d+\.", last_word):
            continue
        sentences.append(text[start:match.start()])
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return [s for s in sentences if s.strip()]


@dataclass
class Item:
    """A block as the reader sees it: a paragraph split into sentences, or a whole item."""

    kind: ItemKind
    sentences: list[str]
    label: str = ""
    lines: list[list[LineRef]] = field(default_factory=list)
    """The flow lines each sentence lies on (empty when the block has no line map)."""


@dataclass
class Part:
    """The content of one section, in reading order."""

    title: str
    kind: str
    items: list[Item] = field(default_factory=list)
    heading: LineRef | None = None


def paper_parts(paper: Paper) -> list[Part]:
    """The paper's blocks grouped by section in reading order."""
    blocks: list[Block] = sorted([*paper.paragraphs, *paper.equations, *paper.captions],
                                 key=_position(paper))
    parts: list[Part] = []
    current: str | None = "\0"
    for block in blocks:
        if block.section_id != current or not parts:
            current = block.section_id
            parts.append(_new_part(paper, current))
        parts[-1].items.append(_item(block))
    if paper.abstract and not any(p.kind == "abstract" for p in parts):
        head = paper.abstract[:60]
        if not any(head in " ".join(i.sentences) for p in parts[:2] for i in p.items):
            parts.insert(0, Part("Abstract", "abstract",
                                 [Item("text", split_sentences(paper.abstract))]))
    return parts


def _position(paper: Paper) -> Callable[[Block], tuple[int, int, int]]:
    order = {id(b): n for n, b in enumerate([*paper.paragraphs, *paper.equations, *paper.captions])}

    def key(block: Block) -> tuple[int, int, int]:
        first = block.first
        if first is None:
            return (10**6, 0, order[id(block)])
        return (first.page, first.line, order[id(block)])
    return key


def _new_part(paper: Paper, section_id: str | None) -> Part:
    if section_id is None:
        return Part("Front matter", "front_matter")
    try:
        section = paper.section(section_id)
    except KeyError:
        return Part("Untitled section", "other")
    title = f"{section.number} {section.title}" if section.number else section.title
    return Part(clean_text(title), section.kind,
                heading=LineRef(page=section.page, line=section.line))


def _item(block: Block) -> Item:
    text = clean_text(block.text)
    if isinstance(block, Equation):
        return Item("equation", [text], f"Equation ({block.label})" if block.label
                    else "Equation", [_block_lines(block)])
    if isinstance(block, Caption):
        label = f"{block.kind.title()} {block.label}" if block.label else block.kind.title()
        return Item("caption", [text], label, [_block_lines(block)])
    sentences = split_sentences(text)
    return Item("text", sentences, lines=_sentence_lines(block, sentences, text))


def _block_lines(block: Block) -> list[LineRef]:
    return list(dict.fromkeys(LineRef(page=s.page, line=s.line) for s in block.segments))


def _sentence_lines(block: Block, sentences: list[str], text: str) -> list[list[LineRef]]:
    """Per sentence, the lines its characters come from (all the block's if unmappable)."""
    if text != block.text:
        return [_block_lines(block)] * len(sentences)
    out: list[list[LineRef]] = []
    cursor = 0
    for sentence in sentences:
        start = text.find(sentence, cursor)
        if start < 0:
            out.append(_block_lines(block))
            continue
        end = cursor = start + len(sentence)
        out.append(list(dict.fromkeys(LineRef(page=s.page, line=s.line) for s in block.segments
                                      if s.start < end and s.end > start)))
    return out


def render(title: str, parts: list[Part]) -> str:
    """The parts as plain text (their size is what a section costs the reader)."""
    out = [f"TITLE: {title}"] if title else []
    for part in parts:
        out.append(f"\n## {part.title}")
        out += [line for item in part.items if (line := _render_item(item))]
    return "\n".join(out).strip()


def kept_lines(parts: list[Part]) -> list[LineRef]:
    """The flow lines of ``parts`` (each heading first), in order, once."""
    out: list[LineRef] = []
    for part in parts:
        lines = [ref for item in part.items for refs in item.lines for ref in refs]
        if lines and part.heading is not None:
            out.append(part.heading)
        out += lines
    return list(dict.fromkeys(out))


def _render_item(item: Item) -> str:
    if item.kind != "text":
        return f"[{item.label}] {item.sentences[0]}"
    return " ".join(item.sentences)
