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

from papermind.domain import Block, LineRef, Paper, Section

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
    """The lines one reviewer may see (original ids) and which sections they came from.

    The node renders ``lines`` with ``Grounder.numbered_text`` so the model cites the
    paper's own line ids; ``size`` is what that text costs in characters (ids included)."""

    lines: list[LineRef]
    sections: list[str]
    size: int = 0


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


def editor_view(paper: Paper) -> str:
    """Title, abstract and outline (numbered headings); the editor cites nothing."""
    outline = [f"{'  ' * (s.level - 1)}{(s.number + ' ') if s.number else ''}{s.title}"
               for s in paper.sections]
    abstract = _abstract(paper)
    return f"Title: {paper.title}\n\nAbstract:\n{abstract}\n\nOutline:\n" + "\n".join(outline)


def contribution_view(paper: Paper, budget: int) -> View:
    """Abstract (at most a third of the budget), introduction and conclusion."""
    abstract = _lines_of(paper, _pick(paper, {"abstract"}, fallback="none"), budget // 3,
                         with_captions=False)
    body = _lines_of(paper, _pick(paper, {"intro", "conclusion"}, fallback="head"),
                     budget - abstract.size, with_captions=False)
    lines = sorted({*abstract.lines, *body.lines}, key=lambda r: (r.page, r.line))
    return View(lines=lines, sections=abstract.sections + body.sections,
                size=abstract.size + body.size)


def methodology_view(paper: Paper, budget: int) -> View:
    """Method sections with their equations, figures and tables."""
    picked = _pick(paper, {"method"}, fallback="first_half")
    return _lines_of(paper, picked, budget, with_captions=True)


def experiment_view(paper: Paper, budget: int) -> View:
    """Experiment sections, their tables, and ablations."""
    picked = _pick(paper, {"experiment", "ablation"}, fallback="second_half")
    return _lines_of(paper, picked, budget, with_captions=True, tables_only=True)


_SETUP = re.compile(r"implement|training|setup|hyper.?param|dataset|\bdata\b|\bcode\b|comput|"
                    r"hardware|reproduc|detail", re.I)


def reproducibility_view(paper: Paper, budget: int) -> View:
    """Where code, data, seeds, hyper-parameters and compute are stated: setup, training and
    implementation sections (from the appendix too), then the experiments, with their tables."""
    groups = section_groups(paper)
    setup: set[str | None] = {s.id for s in paper.sections if _SETUP.search(s.title)
                              and (groups[s.id] != "skip" or s.kind == "appendix")}
    picked = setup | _pick(paper, {"experiment"}, fallback="second_half")
    return _lines_of(paper, picked, budget, with_captions=True, tables_only=True)


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
    if fallback == "none" or any(p.section_id in picked for p in paper.paragraphs):
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


def _lines_of(paper: Paper, picked: set[str | None], budget: int, *, with_captions: bool,
              tables_only: bool = False) -> View:
    """Lines of the picked blocks (and their section headings) in reading order, fairly
    trimmed to ``budget`` characters of numbered text."""
    blocks: list[Block] = [p for p in paper.paragraphs if _belongs(p, picked)]
    if with_captions:
        blocks += [e for e in paper.equations if _belongs(e, picked)]
        blocks += [c for c in paper.captions if _belongs(c, picked)
                   and (not tables_only or c.kind == "table")]
    blocks.sort(key=_position)
    heads = {s.id: s for s in paper.sections}
    headings = {sid: LineRef(page=heads[sid].page, line=heads[sid].line)
                for sid in dict.fromkeys(b.section_id for b in blocks) if sid in heads}
    costs = _costs(paper)
    spent = sum(costs.get((r.page, r.line), 0) for r in headings.values())
    kept = _round_robin(blocks, max(budget - spent, budget // 2), costs)
    lines = sorted({*(r for r in headings.values() if (r.page, r.line) in costs), *kept},
                   key=lambda r: (r.page, r.line))
    size = sum(costs[(r.page, r.line)] for r in lines) + 8 * len({r.page for r in lines})
    return View(lines=lines, sections=_titles(paper, picked), size=size)


def _costs(paper: Paper) -> dict[tuple[int, int], int]:
    """Characters each flow line takes in numbered form ('12 text' and a newline)."""
    return {(line.page, line.n): len(line.text) + len(str(line.n)) + 2
            for line in paper.lines()}


def _block_lines(block: Block) -> list[LineRef]:
    return list(dict.fromkeys(LineRef(page=s.page, line=s.line) for s in block.segments))


def _position(block: Block) -> tuple[int, int]:
    first = block.first
    return (first.page, first.line) if first else (0, 0)


def _round_robin(blocks: Iterable[Block], budget: int,
                 costs: dict[tuple[int, int], int]) -> list[LineRef]:
    """Give every section its first line, then its second... until the budget is spent
    (each section's lines in block order), so no section crowds out the others."""
    by_section: dict[str | None, list[LineRef]] = {}
    for block in blocks:
        queue = by_section.setdefault(block.section_id, [])
        queue += [r for r in _block_lines(block) if (r.page, r.line) in costs and r not in queue]
    kept: dict[LineRef, None] = {}
    used, depth = 0, 0
    open_queues = list(by_section.values())
    while open_queues:
        for queue in list(open_queues):
            ref = queue[depth] if depth < len(queue) else None
            if ref is None or used + costs[(ref.page, ref.line)] > budget:
                open_queues.remove(queue)  # done, or its next line does not fit any more
                continue
            if ref not in kept:
                kept[ref] = None
                used += costs[(ref.page, ref.line)]
        depth += 1
    return list(kept)
