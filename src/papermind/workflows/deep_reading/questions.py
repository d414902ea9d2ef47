"""Questions from the paper, not templates: what they build on, how they are asked, and
which are kept.

Sources are the verified points and the sentences code finds about assumptions,
limitations, threats and future work (ids L1, L2...). Each kept question cites the lines of
what it builds on; a question that is not about its sources (no shared content words), adds
a number or name they lack, repeats another, or looks like junk is dropped with the reason;
a 'why' that only restates the question is left out.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from pydantic import Field

from papermind.domain import Anchor, Evidence
from papermind.domain.reading import DroppedQuestion, Question, ReadingPoint
from papermind.grounding.explanations import looks_like_junk, repeats
from papermind.grounding.relatedness import content_keys
from papermind.grounding.text import compact, fold, numbers_in
from papermind.llm import Gateway, PromptTemplate, fence_untrusted
from papermind.workflows.deep_reading.points import point_id, point_text
from papermind.workflows.deep_reading.schemas import QuestionerOutput, _Out
from papermind.workflows.model_output import structured_or_none

WRITER = PromptTemplate.load(Path(__file__).parent / "prompts" / "question_writer.md",
                             {"source", "what"})
SAME = 0.75
"""Similarity above which a question repeats an earlier one."""
GENERIC = frozenset(content_keys(
    "main key central limitation limitations weakness finding answer answers question problem "
    "contribution future assumption assumptions idea novel important significant"))
"""Words that fit a question about any paper, besides the stop words ``content_keys`` already
leaves out ('paper', 'text', 'method'...): sharing only these with what a question builds on
does not make it about that ("What is the main limitation of the text?")."""


@dataclass(frozen=True)
class Source:
    """Something a question may build on: a verified point or a sentence code found."""

    id: str
    kind: str
    """Short: 'method', 'result'... or 'limitation' for a sentence code found."""
    what: str
    """Long, for the question writer: 'a method point of the paper'."""
    text: str
    anchors: tuple[Anchor, ...]


class OneQuestion(_Out):
    """One question about one source."""

    question: str = Field(default="", description="one short, specific question")


def sources(points: list[ReadingPoint], found: list[Evidence]) -> list[Source]:
    """Code-found sentences first (L1..), then verified points of each kind in turn."""
    anchored = [(e.quote, e.anchor) for e in found if e.anchor is not None]
    out = [Source(f"L{n}", "assumption, limitation or future work", "a sentence of the paper "
                  "about an assumption, a limitation or future work", text, (anchor,))
           for n, (text, anchor) in enumerate(anchored, 1)]
    verified = [p for p in points if p.verified]
    kinds: dict[str, list[ReadingPoint]] = {}
    for p in verified:
        kinds.setdefault(p.kind, []).append(p)
    while any(kinds.values()):
        for group in kinds.values():
            if group:
                p = group.pop(0)
                out.append(Source(p.id, p.kind, f"a {p.kind} point of the paper",
                                  point_text(p), tuple(
                    e.anchor for e in p.evidence if e.anchor is not None)))
    return out


def listing(items: list[Source]) -> str:
    return "\n".join(f"{s.id} ({s.kind}): {s.text}" for s in items)


async def ask_each(gateway: Gateway, items: list[Source], limit: int) -> tuple[
        list[tuple[str, list[str], str]], list[str]]:
    """One small call per source (the bundled model): (question, builds_on, why) drafts."""
    chosen = items[:limit + 2]

    async def one(source: Source) -> tuple[str, list[str]]:
        messages = WRITER.render(source=fence_untrusted(source.text, "SOURCE"),
                                 what=source.what)
        out, warnings = await structured_or_none(gateway, "question_writer", messages, OneQuestion,
                                                 node="questioner", outcome="no question")
        return (out.question.strip() if out else ""), warnings
    answers = await asyncio.gather(*(one(s) for s in chosen))
    drafts = [(q, [s.id], "") for s, (q, _) in zip(chosen, answers, strict=True) if q]
    return drafts, [w for _, ws in answers for w in ws]


def drafts_of(output: QuestionerOutput) -> list[tuple[str, list[str], str]]:
    """(question, builds_on, why) from the batch questioner's answer."""
    return [(q.question.strip(), list(dict.fromkeys(point_id(i) for i in q.builds_on
                                                    if i.strip())), q.why.strip())
            for q in output.questions if q.question.strip()]


def screen(drafts: list[tuple[str, list[str], str]], items: list[Source], known: set[str],
           limit: int) -> tuple[list[Question], list[DroppedQuestion]]:
    """Questions kept (with the anchors they build on) and dropped (with the reason)."""
    by_id = {s.id: s for s in items}
    kept: list[Question] = []
    dropped: list[DroppedQuestion] = []
    for text, ids, why in drafts:
        text = " ".join(text.split())
        reason = _problem(text, ids, by_id, known, kept, limit)
        if reason:
            dropped.append(DroppedQuestion(text=text, builds_on=ids, reason=reason))
            continue
        anchors = list({a.label(): a for i in ids for a in by_id[i].anchors}.values())
        kept.append(Question(text=text, builds_on=ids, anchors=anchors,
                             why="" if _circular(why, text) else why))
    return kept, dropped


def _problem(text: str, ids: list[str], by_id: dict[str, Source], known: set[str],
             kept: list[Question], limit: int) -> str:
    if not ids:
        return "does not say what it builds on"
    if bad := [i for i in ids if i in known and i not in by_id]:
        return f"builds on unverified point(s) {', '.join(bad)}"
    if unknown := [i for i in ids if i not in by_id]:
        return f"cites unknown id(s) {', '.join(unknown)}"
    if looks_like_junk(text) or repeats(text) or "?" not in text:
        return "not a well-formed question"
    base = " ".join(by_id[i].text for i in ids)
    if not (set(content_keys(text)) & set(content_keys(base))) - GENERIC:
        return "not about what it builds on (no shared words but generic ones): a generic question"
    if extra := [n for n in numbers_in(text) if n not in numbers_in(base)]:
        return f"states {', '.join(extra)}, which what it builds on does not"
    if any(SequenceMatcher(None, fold(text), fold(q.text)).ratio() > SAME for q in kept):
        return "repeats an earlier question"
    if compact(text) and compact(text) in compact(base):
        return "copies the paper's text"
    if len(kept) >= limit:
        return f"more than {limit} questions"
    return ""


def _circular(why: str, question: str) -> bool:
    """A 'why' that says the question again adds nothing."""
    if not why:
        return False
    return SequenceMatcher(None, fold(why), fold(question)).ratio() > 0.6 or not (
        set(content_keys(why)) - set(content_keys(question)))
