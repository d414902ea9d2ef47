"""How much a hidden-text finding matters: instructions aimed at a reader or a model are high,
labels and text that duplicates what the page shows anyway (white axis labels inside a
figure, tiny tick numbers) are low, other hidden prose is medium."""

from __future__ import annotations

import re
from collections.abc import Iterable

from papermind.domain.paper import Severity

_INSTRUCTION = re.compile(
    r"\b(ignore|disregard|forget)\b.{0,40}\b(instruction|prompt|previous|above|rules)(?![\w-]*-)"
    r"|\b(you are|you must|you should|as an? (ai|assistant|language model|llm|reviewer))\b"
    r"|\b(reviewers?|llms?|models?|assistants?)\b.{0,30}\b(must|should|shall|need to)\b"
    r"|\b(give|assign|recommend|rate)\b.{0,40}\b(accept|positive|high|strong|score|rating)"
    r"|\b(accept|approve) (this|the) (paper|submission|manuscript)"
    r"|\b(do not|don't|never) (mention|reveal|point out|criticize|flag)"
    r"|\bsystem prompt\b|\bprompt injection\b",
    re.IGNORECASE,
)
_ADDRESSED = re.compile(
    r"\b(ignore|disregard|forget)\b.{0,40}\b(instructions?|prompts?)\b(?!-)"
    r"|\bas an? (ai|assistant|language model|llm)\b"
    r"|\b(note|message|instructions?) (to|for) (the |all )?(reviewers?|llms?|ai|assistants?)\b"
    r"|\b(reviewers?|llms?|assistants?)\b.{0,30}\b(must|should|shall)\b.{0,40}"
    r"\b(accept|recommend|rate|score|positive)"
    r"|\b(recommend|rate|give)\b.{0,40}\b(strong accept|accept(ing|ance)? (of )?(this|the) "
    r"(paper|submission)|positive review|high score)"
    r"|\b(accept|approve) (this|the) (paper|submission|manuscript)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]{2,}")


def addresses_reviewer(text: str) -> bool:
    """Whether a line of the visible text tells a reviewer or model what to do about the paper
    ('ignore all previous instructions', 'as an AI reviewer you must rate...'). Stricter than
    the hidden-text pattern: visible prose says 'a good model should be robust' or
    'annotators rate Asian faces higher' in its own right."""
    return bool(_ADDRESSED.search(text))


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def severity(text: str, visible: Iterable[str]) -> tuple[Severity, str]:
    """('high' | 'medium' | 'low', why) for hidden ``text`` on a page whose visible lines are ``visible``."""
    if _INSTRUCTION.search(text):
        return "high", "reads as instructions to a reader or model"
    words = _words(text)
    if len(words) <= 6:
        return "low", "a short label or number, not prose"
    seen = set(_words(" ".join(visible)))
    if sum(w in seen for w in words) >= 0.8 * len(words):
        return "low", "duplicates text visible on the page"
    return "medium", "hidden prose"
