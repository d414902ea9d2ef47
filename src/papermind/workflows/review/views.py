"""What each role sees: the paper's parts selected by section kind and heading, within a budget.

Sections are grouped by ``Section.kind``; sections whose kind is missing ('other') are
grouped by heading keywords, then inherit their parent's group. When a paper has no
method or experiment sections at all, the body is split by position as a last resort.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from papermind.domain import Block, Caption, Equation, Paper, Paragraph, Section

Group = Literal["abstract", "intro", "method", "experiment", "conclusion", "ablation",
                "other", "skip"]

_KIND_GROUP: dict[str, Group] = {
    "abstract": "abstract", "introduction": "intro", "related_work": "other",
    "method": "method", "experiments": "experiment", "results": "experiment",
    "discussion": "conclusion", "conclusion": "conclusion", "references": "skip",
    "appendix": "skip", "acknowledgements": "skip",
}
_KEYWORDS: list[tuple[Group, re.Pattern[str]]] = [
    ("ablation", re.compile(r"ablation", re.I)),
    ("skip", re.compile(r"reference|bibliograph|acknowledg|appendix|supplementa", re.I)),
    ("abstract", re.compile(r"^abstract$", re.I)),
    ("intro", re.compile(r"introduction|motivation", re.I)),
    ("conclusion", re.compile(r"conclu|discussion|summary|future work|limitation", re.I)),
    ("experiment", re.compile(
        r"experiment|evaluation|result|empiric|benchmark|setup|comparison|dataset", re.I)),
    ("method", re.compile(
        r"method|approach|model|algorithm|framework|theor|analysis|preliminar|problem|"
        r"formulation|architecture|proof|lemma|convergence|design|learning", re.I)),
]


@dataclass(frozen=True)
class View:
    """The text one role may see, and which sections it came from."""

    text: str
    sections: list[str]


def section_groups(paper: Paper) -> dict[str, Group]:
    """Group of every section: by kind, else by heading keywords, else the parent's group."""
    groups: dict[str, Group] = {}
    for section in paper.sections:  # document order: parents come first
        groups[section.id] = _group_of(section, groups)
    return groups


def _group_of(section: Section, known: dict[str, Group]) -> Group:
    for group, pattern in _KEYWORDS[:1]:
        if pattern.search(section.title):
            return group
    if section.kind != "other":
        return _KIND_GROUP.get(section.kind, "other")
    for group, pattern in _KEYWORDS[1:]:
        if pattern.search(section.title):
            return group
    return known.get(section.parent or "", "other")


def editor_view(paper: Paper) -> View:
    """Title, abstract and outline (numbered headings)."""
    outline = [f"{'  ' * (s.level - 1)}{(s.number + ' ') if s.number else ''}{s.title}"
               for s in paper.sections]
    abstract = _abstract(paper)
    text = f"Title: {paper.title}\n\nAbstract:\n{abstract}\n\nOutline:\n" + "\n".join(outline)
    return View(text=text, sections=["abstract", "outline"])


def contribution_view(paper: Paper, budget: int) -> View:
    """Abstract, introduction and conclusion."""
    picked = _pick(paper, {"intro", "conclusion"}, fallback="head")
    abstract = _abstract(paper)[: budget // 3]
    body = _render(paper, picked, budget - len(abstract) - 12, with_captions=False)
    return View(text=f"Abstract:\n{abstract}\n\n{body}".strip(), sections=_titles(paper, picked))


def methodology_view(paper: Paper, budget: int) -> View:
    """Method sections with their equations, figures and tables."""
    picked = _pick(paper, {"method"}, fallback="first_half")
    return View(text=_render(paper, picked, budget, with_captions=True),
                sections=_titles(paper, picked))


def experiment_view(paper: Paper, budget: int) -> View:
    """Experiment sections, their tables, and ablations."""
    picked = _pick(paper, {"experiment", "ablation"}, fallback="second_half")
    return View(text=_render(paper, picked, budget, with_captions=True, tables_only=True),
                sections=_titles(paper, picked))


def _abstract(paper: Paper) -> str:
    if paper.abstract.strip():
        return paper.abstract.strip()
    groups = section_groups(paper)
    return " ".join(p.text for p in paper.paragraphs
                    if groups.get(p.section_id or "") == "abstract")


def _pick(paper: Paper, wanted: set[str], fallback: str) -> set[str | None]:
    """Section ids of the wanted groups; a positional fallback when there are none."""
    groups = section_groups(paper)
    picked: set[str | None] = {sid for sid, g in groups.items() if g in wanted}
    if any(p.section_id in picked for p in paper.paragraphs):
        return picked
    body = [p for p in paper.paragraphs if groups.get(p.section_id or "", "other") == "other"]
    if not body:
        return picked
    half = len(body) // 2
    chosen = {"head": body[: max(1, len(body) // 5)], "first_half": body[: max(1, half)],
              "second_half": body[half:]}[fallback]
    return {f"para:{p.id}" for p in chosen}


def _belongs(block: Block, picked: set[str | None]) -> bool:
    return block.section_id in picked or f"para:{block.id}" in picked


def _titles(paper: Paper, picked: set[str | None]) -> list[str]:
    titles = [s.title for s in paper.sections if s.id in picked]
    return titles or (["(by position)"] if picked else [])


def _render(paper: Paper, picked: set[str | None], budget: int, *, with_captions: bool,
            tables_only: bool = False) -> str:
    """Blocks of the picked sections in document order, fairly trimmed to ``budget`` chars."""
    blocks: list[Block] = [p for p in paper.paragraphs if _belongs(p, picked)]
    if with_captions:
        blocks += [e for e in paper.equations if _belongs(e, picked)]
        blocks += [c for c in paper.captions if _belongs(c, picked)
                   and (not tables_only or c.kind == "table")]
    blocks.sort(key=_position)
    heads = {s.id: s for s in paper.sections}
    overhead = sum(len(_heading(heads[sid])) + 1 for sid in {b.section_id for b in blocks}
                   if sid in heads) + 16 * sum(not isinstance(b, Paragraph) for b in blocks)
    kept = _round_robin(blocks, max(budget - overhead, budget // 2))
    out: list[str] = []
    current: str | None = "\0"
    for block in blocks:
        if block.id not in kept:
            continue
        if block.section_id != current and block.section_id in heads:
            out.append(_heading(heads[block.section_id]))
        current = block.section_id
        out.append(_block_text(block, kept[block.id]))
    return "\n".join(out)


def _heading(section: Section) -> str:
    return f"## {(section.number + ' ') if section.number else ''}{section.title}"


def _position(block: Block) -> tuple[int, int]:
    first = block.first
    return (first.page, first.line) if first else (0, 0)


def _round_robin(blocks: Iterable[Block], budget: int) -> dict[str, str]:
    """Give every section its first block, then its second... until the budget is spent."""
    by_section: dict[str | None, list[Block]] = {}
    for block in blocks:
        by_section.setdefault(block.section_id, []).append(block)
    kept: dict[str, str] = {}
    used, depth = 0, 0
    while used < budget and any(depth < len(v) for v in by_section.values()):
        for queue in by_section.values():
            if depth < len(queue) and used < budget:
                text = queue[depth].text[: max(budget - used, 0)]
                kept[queue[depth].id] = text
                used += len(text) + 1
        depth += 1
    return kept


def _block_text(block: Block, text: str) -> str:
    if isinstance(block, Equation):
        return f"[Equation {block.label or ''}] {text}".replace("  ", " ")
    if isinstance(block, Caption):
        return f"[{block.kind.title()} {block.label or ''}] {text}".replace("  ", " ")
    return text
