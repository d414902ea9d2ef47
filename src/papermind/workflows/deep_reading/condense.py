"""The reader's view of a paper: its numbered lines, whole or in parts that each fit.

The reader cites line ids, so the text it sees is always the paper's own flow lines with
their original ids (``Grounder.numbered_text``). A paper longer than the reader's budget is
not condensed to a fraction: it is read section by section (map), each part as many whole
sections as fit (a section longer than the budget is split at line boundaries), and the
points of all parts are merged (reduce). What the reader saw is recorded per section.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from papermind.domain import LineRef, Paper
from papermind.domain.reading import ContextInfo, ContextSection
from papermind.workflows.deep_reading.parts import Part, kept_lines, paper_parts, render

TokenCounter = Callable[[str], int]
NumberedText = Callable[[Paper, Sequence[LineRef] | None], str]
"""``Grounder.numbered_text``: the paper's lines (or only the given ones) with their ids."""
OMITTED = ("references", "acknowledgements")


def estimate_tokens(text: str) -> int:
    """Rough token count (about four characters a token) when no tokenizer is given."""
    return (len(text) + 3) // 4


def build_context(paper: Paper, budget: int, numbered_text: NumberedText,
                  count: TokenCounter = estimate_tokens) -> tuple[list[str], ContextInfo]:
    """The reader's numbered text of ``paper``: one part when it fits ``budget`` tokens,
    else several parts of whole sections, each within the budget; and what was seen."""
    full = numbered_text(paper, None)
    paper_tokens = count(full)
    parts = paper_parts(paper)
    if paper_tokens <= budget:
        sections = [_section_info(p, count) for p in parts]
        return [full], ContextInfo(budget_tokens=budget, paper_tokens=paper_tokens,
                                   context_tokens=paper_tokens, sections=sections)
    costs = {LineRef(page=line.page, line=line.n): count(f"{line.n} {line.text}") + 1
             for line in paper.lines()}
    read = [p for p in parts if p.kind not in OMITTED]
    in_parts = {ref for part in parts for ref in kept_lines([part])}
    loose = [ref for ref in costs if ref not in in_parts]  # title, authors: no section
    groups = _groups(read, budget, costs, loose)
    texts = [numbered_text(paper, lines) for lines in groups]
    notes = [f"read section by section in {len(texts)} parts of at most {budget} tokens; "
             "the points of all parts were merged"]
    if skipped := [p.title for p in parts if p.kind in OMITTED]:
        notes.append("not read: " + ", ".join(skipped))
    sections = [_section_info(p, count, omitted=p.kind in OMITTED) for p in parts]
    return texts, ContextInfo(method="sections", budget_tokens=budget,
                              paper_tokens=paper_tokens,
                              context_tokens=sum(count(t) for t in texts), sections=sections,
                              notes=notes)


def _groups(parts: list[Part], budget: int, costs: dict[LineRef, int],
            loose: list[LineRef]) -> list[list[LineRef]]:
    """Lines of consecutive whole sections per group, each group within ``budget``; lines in
    no section (the title block) open the first group."""
    room = max(64, budget - 16)
    groups: list[list[LineRef]] = [[]]
    used = 0
    for lines in [loose, *(kept_lines([part]) for part in parts)]:
        cost = sum(costs.get(r, 1) for r in lines)
        if used and used + cost > room:
            groups.append([])
            used = 0
        for ref in lines:  # a section longer than the budget is split at a line
            if used and used + costs.get(ref, 1) > room:
                groups.append([])
                used = 0
            groups[-1].append(ref)
            used += costs.get(ref, 1)
    return [g for g in groups if g]


def _section_info(part: Part, count: TokenCounter, omitted: bool = False) -> ContextSection:
    full = sum(len(i.sentences) for i in part.items if i.kind == "text")
    tokens = count(render("", [part]))
    return ContextSection(title=part.title, kind=part.kind, tokens_full=tokens,
                          tokens_kept=0 if omitted else tokens, sentences_full=full,
                          sentences_kept=0 if omitted else full, omitted=omitted)
