"""Distillation: passages -> line-cited evidence bearing on a sub-question.

Each passage is shown as the paper's numbered lines (its search hit's anchor); the model cites
the line ids that bear on the sub-question (a short quote optional) and code reads those lines
(``Grounder.cite``). A passage without an anchor falls back to a copied quote that grounding
locates. A passage for which the model gave nothing found contributes its best-matching
sentences instead (an extractive fallback chosen by keyword overlap), so a weak model degrades
to plainer evidence, not to none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from langgraph.runtime import Runtime

from papermind.domain import LineRef, Paper
from papermind.domain.answer import EvidenceItem
from papermind.domain.chunk import SearchHit
from papermind.llm import fence_untrusted
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import PaperCache, ask, planned, prompt
from papermind.workflows.deep_qa.query import keywords
from papermind.workflows.deep_qa.schemas import DistillOut

_VARS = frozenset({"question", "passages"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")
MAX_QUOTES_PER_PASSAGE = 2
MIN_SENTENCE_CHARS = 25


class Distilled(NamedTuple):
    """What one distillation produced."""

    added: list[EvidenceItem]
    reused: list[str]
    notes: list[str]


def passages_block(hits: Sequence[SearchHit], chars: int,
                   numbered: Sequence[str] | None = None) -> str:
    """Numbered passages (as numbered lines where given), fenced as untrusted data."""
    shown = numbered or [""] * len(hits)
    body = "\n\n".join(f"Passage {i}:\n{lines[:chars]}" if lines else
                        f"Passage {i}: {h.text[:chars]}"
                        for i, (h, lines) in enumerate(zip(hits, shown, strict=True), start=1))
    return fence_untrusted(body, "PASSAGES")


def hit_lines(paper: Paper, hit: SearchHit) -> list[LineRef]:
    """The flow lines a search hit's anchor covers (empty without an anchor)."""
    a = hit.anchor
    if a is None:
        return []
    start, end = (a.page, a.line_start), (a.page_end or a.page, a.line_end)
    return [LineRef(page=line.page, line=line.n) for line in paper.lines()
            if start <= (line.page, line.n) <= end]


async def distill_hits(runtime: Runtime[QAContext], task_id: str, question: str,
                       hits: Sequence[SearchHit],
                       existing: Sequence[EvidenceItem]) -> Distilled:
    """New evidence items (ids continue after ``existing``), reused ids and notes."""
    if not hits:
        return Distilled([], [], [])
    papers = PaperCache(runtime)
    grounder = runtime.context.grounder
    numbered = [grounder.numbered_text(papers.get(h.paper_id), lines)
                if (lines := hit_lines(papers.get(h.paper_id), h)) else "" for h in hits]
    messages = prompt("distill", _VARS).render(
        question=planned(question),
        passages=passages_block(hits, runtime.context.passage_chars, numbered))
    out, notes = await ask(runtime, "distiller", messages, DistillOut, "distill")
    proposed: dict[int, list[tuple[str, str]]] = {}
    for quoted in out.quotes if out else []:
        if 1 <= quoted.passage <= len(hits) and (quoted.quote.strip() or quoted.lines.strip()):
            proposed.setdefault(quoted.passage - 1, []).append(
                (quoted.lines.strip(), quoted.quote.strip()))
    seen = {_key(e.evidence.quote or e.evidence.matched_text): e.id for e in existing}
    added: list[EvidenceItem] = []
    reused: list[str] = []
    for index, hit in enumerate(hits):
        cited = proposed.get(index, [])[:MAX_QUOTES_PER_PASSAGE]
        items = [_ground(runtime, papers, hit, quote, task_id, lines=lines)
                 for lines, quote in cited]
        if not any(i.evidence.found for i in items):
            items += [_ground(runtime, papers, hit, sentence, task_id)
                      for sentence in best_sentences(hit.text, question)]
        for item in items:
            key = _key(item.evidence.quote or item.evidence.matched_text)
            if key in seen:
                if seen[key] not in reused:
                    reused.append(seen[key])
                continue
            item = item.model_copy(update={"id": f"E{len(existing) + len(added) + 1}"})
            seen[key] = item.id
            added.append(item)
    return Distilled(added, [i for i in reused if i not in {a.id for a in added}], notes)


def _ground(runtime: Runtime[QAContext], papers: PaperCache, hit: SearchHit, quote: str,
            task_id: str, *, lines: str = "") -> EvidenceItem:
    """Evidence for cited ``lines`` (with an optional quote), or a bare quote located."""
    paper = papers.get(hit.paper_id)
    grounder = runtime.context.grounder
    evidence = grounder.cite(paper, lines, quote) if lines else grounder.ground(paper, quote)
    return EvidenceItem(id="", task_id=task_id, paper_id=hit.paper_id, title=paper.title,
                        year=hit.year if hit.year is not None else paper.year,
                        section=hit.section, chunk_id=hit.chunk_id, evidence=evidence)


def best_sentences(text: str, question: str, limit: int = MAX_QUOTES_PER_PASSAGE) -> list[str]:
    """Up to ``limit`` passage sentences sharing most keywords with the question, in text order."""
    wanted = {_stem(w) for w in keywords(question, limit=20)}
    scored = []
    for position, sentence in enumerate(s.strip() for s in _SENTENCE.split(text)):
        if len(sentence) < MIN_SENTENCE_CHARS:
            continue
        score = len(wanted & {_stem(w) for w in sentence.split()})
        if score:
            scored.append((-score, position, sentence))
    best = sorted(scored)[:limit]
    return [sentence for _, _, sentence in sorted(best, key=lambda item: item[1])]


def _stem(word: str) -> str:
    word = word.lower().strip(".,;:()[]\"'")
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _key(quote: str) -> str:
    return " ".join(quote.lower().split())
