"""The reader's view of a paper: its numbered lines, all of them or a faithful condensation.

The reader cites line ids, so the text it sees is always the paper's own flow lines with
their original ids (``Grounder.numbered_text``). Condensation never paraphrases: it picks
sentences (every equation and caption, and each section a share of the budget proportional
to its size), then shows the lines those sentences lie on, with their original ids; left-out
lines show as a gap. What was kept is recorded per section.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from papermind.domain import Block, Caption, Equation, LineRef, Paper
from papermind.domain.reading import ContextInfo, ContextSection

TokenCounter = Callable[[str], int]
NumberedText = Callable[[Paper, Sequence[LineRef] | None], str]
"""``Grounder.numbered_text``: the paper's lines (or only the given ones) with their ids."""
ItemKind = Literal["text", "equation", "caption"]
OMIT_WHEN_CONDENSING = ("references", "acknowledgements", "front_matter")
GAP = "[...]"
_CUES = re.compile(
    r"\b(we (propose|present|introduce|show|define|derive|prove|use|train|evaluate|compare)|"
    r"our (method|model|approach)|outperform|achiev|improv|result|dataset|baseline|ablation|"
    r"accuracy|metric|theorem|lemma|denote|defined as|objective|loss|therefore|hence)",
    re.IGNORECASE)
_ABBREV = {"e.g.", "i.e.", "al.", "fig.", "figs.", "eq.", "eqs.", "sec.", "tab.", "vs.",
           "cf.", "resp.", "approx.", "no.", "etc.", "ref.", "refs.", "dr.", "prof.", "st."}
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[\"'])")


def estimate_tokens(text: str) -> int:
    """Rough token count (about four characters a token) when no tokenizer is given."""
    return (len(text) + 3) // 4


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


Keep = dict[tuple[int, int], set[int]]
"""(part index, item index) -> indexes of kept sentences; a missing key keeps everything."""


def render(title: str, parts: list[Part], keep: Keep | None = None) -> str:
    """The text given to the reader; dropped sentences become ``[...]``."""
    out = [f"TITLE: {title}"] if title else []
    for p_index, part in enumerate(parts):
        out.append(f"\n## {part.title}")
        for i_index, item in enumerate(part.items):
            kept = None if keep is None else keep.get((p_index, i_index))
            line = _render_item(item, kept)
            if line and not (line == GAP and out[-1].endswith(GAP)):
                out.append(line)
    return "\n".join(out).strip()


def kept_lines(parts: list[Part], keep: Keep | None = None) -> list[LineRef]:
    """The flow lines of what ``keep`` keeps (headings of parts with anything kept)."""
    out: list[LineRef] = []
    for p_index, part in enumerate(parts):
        lines: list[LineRef] = []
        for i_index, item in enumerate(part.items):
            kept = None if keep is None else keep.get((p_index, i_index))
            for s_index, refs in enumerate(item.lines):
                if kept is None or s_index in kept:
                    lines += refs
        if lines and part.heading is not None:
            out.append(part.heading)
        out += lines
    return list(dict.fromkeys(out))


def _render_item(item: Item, kept: set[int] | None) -> str:
    if item.kind != "text":
        return f"[{item.label}] {item.sentences[0]}" if kept is None or kept else GAP
    if kept is None:
        return " ".join(item.sentences)
    pieces: list[str] = []
    for index, sentence in enumerate(item.sentences):
        if index in kept:
            pieces.append(sentence)
        elif not pieces or pieces[-1] != GAP:
            pieces.append(GAP)
    return " ".join(pieces)


def build_context(paper: Paper, budget: int, numbered_text: NumberedText,
                  count: TokenCounter = estimate_tokens) -> tuple[str, ContextInfo]:
    """The reader's numbered lines of ``paper`` within ``budget`` tokens, and what was kept."""
    full = numbered_text(paper, None)
    paper_tokens = count(full)
    parts = paper_parts(paper)
    if paper_tokens <= budget:
        sections = [_section_info(p, None, count) for p in parts]
        return full, ContextInfo(budget_tokens=budget, paper_tokens=paper_tokens,
                                 context_tokens=paper_tokens, sections=sections)

    def show(kept: list[Part], keep: Keep) -> str:
        return numbered_text(paper, kept_lines(kept, keep))
    costs = {LineRef(page=line.page, line=line.n): count(f"{line.n} {line.text}") + 1
             for line in paper.lines()}
    return _condense(parts, budget, paper_tokens, count, show, costs)


Show = Callable[[list[Part], Keep], str]


def _condense(parts: list[Part], budget: int, paper_tokens: int, count: TokenCounter,
              show: Show, costs: LineCosts) -> tuple[str, ContextInfo]:
    notes: list[str] = []
    kept_parts = [p for p in parts if p.kind not in OMIT_WHEN_CONDENSING]
    omitted = [p for p in parts if p.kind in OMIT_WHEN_CONDENSING]
    if omitted:
        notes.append("left out: " + ", ".join(p.title for p in omitted))
    sizes = [count(render("", [p])) for p in kept_parts]
    ratio = budget / max(1, sum(sizes))
    fixed = sum(count(i.sentences[0]) + 4 for p in kept_parts for i in p.items if i.kind != "text")
    whole = fixed <= budget // 2
    if not whole:
        notes.append(f"equations and captions ({fixed} tokens) exceed half the budget: they "
                     "compete with sentences for each section's share")
    keep: Keep = {}
    text = ""
    for _ in range(24):
        keep = _select(kept_parts, [ratio * s for s in sizes], count, whole, costs)
        text = show(kept_parts, keep)
        if count(text) <= budget:
            break
        ratio *= 0.85
    else:
        kept_parts, keep, text = _fit_fixed(kept_parts, budget, count, notes, show)
    if not text.strip():
        notes.append("budget too small for any line of the paper: the reader sees no text")
    share = count(text) / max(1, paper_tokens)
    notes.insert(0, f"extractive condensation: {share:.0%} of the paper's tokens kept "
                    "(the lines of verbatim sentences, original line ids; equations and "
                    "captions kept whole)")
    sections = [_section_info(p, keep_of(keep, i, p), count) for i, p in enumerate(kept_parts)]
    sections += [_section_info(p, {}, count, omitted=True) for p in omitted]
    return text, ContextInfo(condensed=True, method="extractive", budget_tokens=budget,
                             paper_tokens=paper_tokens, context_tokens=count(text),
                             sections=sections, notes=notes)


def keep_of(keep: Keep, p_index: int, part: Part) -> dict[int, set[int]]:
    """Kept sentences of one part, by item index."""
    return {i: keep.get((p_index, i), set(range(len(item.sentences))))
            for i, item in enumerate(part.items)}


LineCosts = dict[LineRef, int]
"""Tokens each flow line costs in the numbered text (its id prefix included)."""


def _select(parts: list[Part], shares: list[float], count: TokenCounter,
            whole: bool = True, costs: LineCosts | None = None) -> Keep:
    """Per part: equations and captions (all of them when ``whole``), then the best
    sentences up to the part's share of the budget. A sentence costs the lines it brings
    in that are not shown yet (the reader sees whole lines)."""
    keep: Keep = {}
    for p_index, (part, share) in enumerate(zip(parts, shares, strict=True)):
        used = float(count(part.title) + 2)
        shown: set[LineRef] = set()
        ranked: list[tuple[int, int, int, str]] = []
        for i_index, item in enumerate(part.items):
            keep[(p_index, i_index)] = set()
            if item.kind != "text" and whole:
                keep[(p_index, i_index)].add(0)
                used += _cost(item, 0, count, costs, shown)
                continue
            for s_index, sentence in enumerate(item.sentences):
                score = (5 if item.kind == "equation" else 4) if item.kind != "text" \
                    else _priority(sentence, s_index, i_index)
                ranked.append((-score, i_index, s_index, sentence))
        for _, i_index, s_index, _sentence in sorted(ranked):
            cost = _cost(part.items[i_index], s_index, count, costs, shown, take=False)
            if used + cost <= share:
                keep[(p_index, i_index)].add(s_index)
                used += _cost(part.items[i_index], s_index, count, costs, shown)
    return keep


def _cost(item: Item, s_index: int, count: TokenCounter, costs: LineCosts | None,
          shown: set[LineRef], *, take: bool = True) -> int:
    """Tokens sentence ``s_index`` adds: its new lines, or its own text without a line map."""
    refs = item.lines[s_index] if costs is not None and s_index < len(item.lines) else []
    if not refs:
        return count(item.sentences[s_index]) + 4
    new = [r for r in refs if r not in shown]
    if take:
        shown.update(new)
    return sum(costs.get(r, 0) for r in new) if costs is not None else 0


def _priority(sentence: str, s_index: int, i_index: int) -> int:
    words = len(sentence.split())
    score = 3 if s_index == 0 and words >= 8 else 0
    score += 1 if i_index == 0 else 0
    score += 2 if _CUES.search(sentence) else 0
    score += 1 if re.search(r"\d", sentence) else 0
    score -= 1 if words < 5 else 0
    return score


def _fit_fixed(parts: list[Part], budget: int, count: TokenCounter, notes: list[str],
               show: Show) -> tuple[list[Part], Keep, str]:
    """Equations, captions and headings alone exceed the budget: keep whole parts in order."""
    empty = _select(parts, [0.0] * len(parts), count)
    kept: list[Part] = []
    for part in parts:
        trial = show([*kept, part], _reindex(empty, parts, [*kept, part]))
        if count(trial) > budget:
            break
        kept.append(part)
    dropped = parts[len(kept):]
    if dropped:
        notes.append("budget too small for every equation and caption; left out: "
                     + ", ".join(p.title for p in dropped))
    keep = _reindex(empty, parts, kept)
    return kept, keep, show(kept, keep)


def _reindex(keep: Keep, parts: list[Part], subset: list[Part]) -> Keep:
    index = {id(p): n for n, p in enumerate(parts)}
    return {(new, i): s for new, p in enumerate(subset)
            for (old, i), s in keep.items() if old == index[id(p)]}


def _section_info(part: Part, kept: dict[int, set[int]] | None, count: TokenCounter,
                  omitted: bool = False) -> ContextSection:
    full = sum(len(i.sentences) for i in part.items if i.kind == "text")
    tokens_full = count(render("", [part]))
    if kept is None:
        return ContextSection(title=part.title, kind=part.kind, tokens_full=tokens_full,
                              tokens_kept=tokens_full, sentences_full=full, sentences_kept=full)
    keep = {(0, i): s for i, s in kept.items()}
    kept_n = sum(len(kept.get(i, ())) for i, item in enumerate(part.items) if item.kind == "text")
    tokens_kept = 0 if omitted else count(render("", [part], keep))
    return ContextSection(title=part.title, kind=part.kind, tokens_full=tokens_full,
                          tokens_kept=tokens_kept, sentences_full=full,
                          sentences_kept=0 if omitted else kept_n, omitted=omitted)
