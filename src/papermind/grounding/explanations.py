"""Code checks of a model's plain-language explanation of a passage it was handed.

An explanation may only restate its passage in other words: every number, name and
acronym it uses must be in the passage (and a number stays with the name it goes with
there), it must talk about the passage (shared content words), it must not repeat itself,
look like ids or JSON, or merely copy the passage.
A failed explanation is dropped by the caller and the passage is shown quoted instead.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from papermind.grounding.claims import named_terms
from papermind.grounding.relatedness import relatedness
from papermind.grounding.text import compact, fold, numbers_in

MAX_WORDS = 90
ABOUT = 0.5
"""Share of an explanation's content words that must come from its passage: plain words
may be added, but an explanation mostly made of other words says something else."""
COPIED = 0.7
"""Share of an explanation made of runs of 20+ characters copied from the passage above
which it is a copy, not an explanation."""
_JUNK = re.compile(r"\blines?\s*:|\b(?:follows_from|builds_on|not_enough)\b|\"\w+\"\s*:|[{}]|"
                   r"\[\s*\d+:\d+|^\s*\d+:\d+")
_JUDGE = re.compile(r"\b(?:supported|contradicted|the (?:cited )?text (?:reports|says|states))\b",
                    re.IGNORECASE)
_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*\b")
_NAME = re.compile(r"[A-Z][\w-]*[A-Z][\w-]*")
"""A word that names something (MMVU, VideoMME, FasterViT-4)."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])\s*")


def sentences_of(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def collapse_repeats(text: str) -> str:
    """``text`` with any sentence said before (case and spacing aside) left out."""
    seen: set[str] = set()
    kept = []
    for sentence in sentences_of(text):
        key = compact(sentence)
        if key and key not in seen:
            seen.add(key)
            kept.append(sentence)
    return " ".join(kept)


def repeats(text: str) -> bool:
    """A sentence said twice, or a run of five words said three times or more."""
    keys = [compact(s) for s in sentences_of(text)]
    if len(keys) != len(set(keys)):
        return True
    words = fold(text).split()
    grams = [" ".join(words[i:i + 5]) for i in range(max(0, len(words) - 4))]
    return any(grams.count(g) >= 3 for g in set(grams))


def looks_like_junk(text: str) -> bool:
    """Line ids, JSON fragments or judge vocabulary where prose belongs."""
    return bool(_JUNK.search(text))


def explanation_problems(explanation: str, passage: str) -> list[str]:
    """Why ``explanation`` is not a faithful plain restatement of ``passage`` (empty: none)."""
    text = " ".join(explanation.split())
    if len(text.split()) < 4 and not re.search(r"[\u3400-\u9fff]{6,}", text):
        return ["empty or too short"]
    problems: list[str] = []
    if looks_like_junk(text) or _JUDGE.search(text):
        problems.append("looks like ids, JSON or a verdict, not an explanation")
    if repeats(text):
        problems.append("repeats itself")
    if len(text.split()) > MAX_WORDS:
        problems.append(f"longer than {MAX_WORDS} words")
    have = set(numbers_in(passage))
    problems += [f"the number {n} is not in the passage"
                 for n in dict.fromkeys(numbers_in(text)) if n not in have]
    problems += [f"it puts {n} with '{name}', which the passage does not"
                 for n, name in moved_numbers(text, passage)]
    flat = compact(passage)
    names = [*named_terms(text), *_ACRONYM.findall(text)]
    problems += [f"'{name}' is not in the passage" for name in dict.fromkeys(names)
                 if compact(name) and compact(name) not in flat]
    about = relatedness(text, passage)
    if about.words and about.share < ABOUT:
        problems.append(f"says things the passage does not ({', '.join(about.missing[:4])})")
    if copies(text, passage):
        problems.append("copies the passage instead of explaining it")
    return problems


PAIR_NEAR = 4
"""Words between a number and the name it belongs to in an explanation."""
PAIR_FAR = 6
"""Words the passage may put between that number and that name."""


def moved_numbers(text: str, passage: str) -> list[tuple[str, str]]:
    """(number, name) pairs the explanation makes that the passage does not: a number next
    to a name (an acronym like MMVU) in the explanation whose passage has that number
    nowhere near that name. A small model swaps which result goes with which benchmark
    while every number and name is still the passage's own."""
    ours, theirs = _words(text), _words(passage)
    moved = []
    for i, word in enumerate(ours):
        number = next(iter(numbers_in(word)), None)
        if number is None:
            continue
        near = [(abs(j - i), name) for j, name in enumerate(ours)
                if 0 < abs(j - i) <= PAIR_NEAR and _NAME.fullmatch(name)]
        closest = [name for gap, name in near if gap == min(g for g, _ in near)]
        at = [j for j, w in enumerate(theirs) if number in numbers_in(w)]
        for name in closest:  # the name(s) nearest the number, on either side
            named = [j for j, w in enumerate(theirs) if compact(w) == compact(name)]
            if at and named and min(abs(a - b) for a in at for b in named) > PAIR_FAR:
                moved.append((number, name))
    return moved


def _words(text: str) -> list[str]:
    return [w.strip(".,;:()[]\"'") for w in text.split() if w.strip(".,;:()[]\"'")]


def copies(text: str, passage: str) -> bool:
    """Most of the explanation is the passage's own wording, in order."""
    ours, theirs = fold(" ".join(text.split())), fold(" ".join(passage.split()))
    matcher = SequenceMatcher(None, ours, theirs, autojunk=False)
    copied = sum(block.size for block in matcher.get_matching_blocks() if block.size >= 20)
    return copied > COPIED * len(ours)
