"""The extractive reading: points made from passages code chose, explained by the model.

Used with the bundled model and whenever the reader's window is small. Code selects the
passages from the whole paper (``passages.select``), so every point's anchor is found by
construction; the model writes one short explanation per passage (one small call each);
the checker then checks each explanation against its passage (``grounding.explanations``)
and drops the ones that fail, and a rewrite re-asks only those.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from papermind.domain import Evidence, LineRef
from papermind.domain.reading import ReadingPoint
from papermind.grounding.explanations import collapse_repeats, explanation_problems
from papermind.llm import Gateway, PromptTemplate, fence_untrusted
from papermind.workflows.deep_reading.passages import Passage
from papermind.workflows.deep_reading.schemas import _Lists, texts
from papermind.workflows.model_output import structured_or_none

EXPLAINER = PromptTemplate.load(Path(__file__).parent / "prompts" / "explainer.md",
                                {"passage", "what"})
RETRY = PromptTemplate.load(Path(__file__).parent / "prompts" / "explainer_rewrite.md",
                            {"passage", "what", "problem"})
PREFIX = {"method": "M", "derivation": "D", "experiment": "E", "result": "R"}
WHAT = {"method": "what the method does", "derivation": "what the equation computes",
        "experiment": "how the experiments are set up", "result": "what the result shows"}
_OPENING = re.compile(r"^\s*(?:in short|in summary|in simple terms)\s*[,:]\s*", re.IGNORECASE)


class ExplanationOut(_Lists):
    """One plain-language explanation of one passage: one or two short sentences (a list,
    so an answer cut at its token limit keeps its finished sentences)."""

    sentences: list[str] = texts(2, 160, "one or two short plain sentences", least=1)

    @property
    def explanation(self) -> str:
        return " ".join(s.strip() for s in self.sentences if s.strip())


def line_label(lines: tuple[LineRef, ...]) -> str:
    """Line ids of a run of flow lines: '3:12-14', or '3:40-4:2' across a page break."""
    first, last = lines[0], lines[-1]
    if first == last:
        return f"{first.page}:{first.line}"
    if first.page == last.page:
        return f"{first.page}:{first.line}-{last.line}"
    return f"{first.page}:{first.line}-{last.page}:{last.line}"


def points_from_passages(passages: list[Passage]) -> list[ReadingPoint]:
    """One unchecked point per passage: the paper's text, its lines cited by code."""
    points: list[ReadingPoint] = []
    for passage in passages:
        prefix = PREFIX[passage.kind]
        number = sum(p.id.startswith(prefix) for p in points) + 1
        lists = {k: list(dict.fromkeys(v)) for k, v in passage.lists.items()}
        points.append(ReadingPoint(
            id=f"{prefix}{number}", kind=passage.kind, text=passage.text, source="extracted",
            symbols=list(passage.symbols), evidence=[Evidence(cited=line_label(passage.lines))],
            **lists))
    return points


async def explain(gateway: Gateway, point: ReadingPoint, *, node: str) -> tuple[str, list[str]]:
    """The model's explanation of ``point``'s passage (raw: the checker checks it); a second
    try is told why the first was dropped."""
    passage = fence_untrusted(point.text, "PASSAGE", preamble=False)
    problem = point.explanation_note.removeprefix("explanation dropped (").split(
        "): the passage", 1)[0]
    messages = (RETRY.render(passage=passage, what=WHAT[point.kind], problem=problem)
                if problem and not problem.startswith("no explanation") else
                EXPLAINER.render(passage=passage, what=WHAT[point.kind]))
    output, warnings = await structured_or_none(gateway, "explainer", messages, ExplanationOut,
                                                node=node, outcome="the passage is shown quoted")
    return (output.explanation.strip() if output else ""), warnings


async def explain_all(gateway: Gateway, points: list[ReadingPoint],
                      todo: set[str] | None = None, *,
                      done: Callable[[int, int], None] | None = None,
                      ) -> tuple[list[ReadingPoint], list[str]]:
    """``points`` with a fresh explanation for each id in ``todo`` (every point if None);
    ``done(k, n)`` after each explanation (live progress)."""
    chosen = [p for p in points if todo is None or p.id in todo]
    finished = 0

    async def one(point: ReadingPoint) -> tuple[str, list[str]]:
        nonlocal finished
        answer = await explain(gateway, point, node="deep_reader")
        finished += 1
        if done is not None:
            done(finished, len(chosen))
        return answer
    answers = await asyncio.gather(*(one(p) for p in chosen))
    by_id = dict(zip((p.id for p in chosen), answers, strict=True))
    warnings = [w for _, ws in answers for w in ws]
    out = [p.model_copy(update={"explanation": by_id[p.id][0]}) if p.id in by_id else p
           for p in points]
    return out, warnings


def checked_explanation(point: ReadingPoint) -> ReadingPoint:
    """``point`` with its explanation kept only when code finds it faithful to the passage
    (the paper's text at the anchor), else dropped with the reason."""
    if point.source != "extracted":
        return point
    if not point.explanation:
        return point.model_copy(update={
            "explanation_note": "no explanation was given: the passage is shown quoted"})
    text = _OPENING.sub("", collapse_repeats(point.explanation))
    problems = explanation_problems(text, f"{point.text} {WHAT[point.kind]}")
    if not problems:
        return point.model_copy(update={"explanation": text[:1].upper() + text[1:],
                                        "explanation_note": ""})
    return point.model_copy(update={
        "explanation": "", "explanation_note": "explanation dropped (" + "; ".join(problems)
        + "): the passage is shown quoted"})


def failed_explanations(points: list[ReadingPoint]) -> set[str]:
    """Ids of extracted points whose explanation is missing or was dropped."""
    return {p.id for p in points if p.source == "extracted" and not p.explanation}
