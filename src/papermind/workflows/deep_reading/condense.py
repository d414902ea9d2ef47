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

from papermind.domain import LineRef, Paper
from papermind.domain.reading import ContextInfo, ContextSection
from papermind.workflows.deep_reading.parts import (
    Item,
    Keep,
    Part,
    kept_lines,
    paper_parts,
    render,
)

TokenCounter = Callable[[str], int]
NumberedText = Callable[[Paper, Sequence[LineRef] | None], str]
"""``Grounder.numbered_text``: the paper's lines (or only the given ones) with their ids."""
OMIT_WHEN_CONDENSING = ("references", "acknowledgements", "front_matter")
_CUES = re.compile(
    r"\b(we (propose|present|introduce|show|define|derive|prove|use|train|evaluate|compare)|"
    r"our (method|model|approach)|outperform|achiev|improv|result|dataset|baseline|ablation|"
    r"accuracy|metric|theorem|lemma|denote|defined as|objective|loss|therefore|hence)",
    re.IGNORECASE)


def estimate_tokens(text: str) -> int:
    """Rough token count (about four characters a token) when no tokenizer is given."""
    return (len(text) + 3) // 4


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
