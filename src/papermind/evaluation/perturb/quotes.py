"""Quotes built by rule from real papers, to measure the locator (bench and tests).

Genuine spans are cut from the paper's body as a reader would copy them (hyphenated line
breaks joined), including spans that cross line, column and page breaks, and spans written
with ligatures. Light edits, paraphrases and fabricated sentences are derived from them.
The text is cut here independently of the locator's own normalisation.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from papermind.domain import Line, Paper
from papermind.grounding.claims import named_terms

POSITIVE_KINDS = ("genuine_line", "genuine_cross_line", "genuine_cross_column",
                  "genuine_cross_page", "genuine_hyphenated", "genuine_ligature", "ellipsis")
NEGATIVE_KINDS = ("number_changed", "word_changed", "words_dropped", "paraphrase",
                  "fabricated_stitched", "fabricated_swapped", "fabricated_foreign")
PROSE = re.compile(r"[A-Za-z][a-z]+[,.;:]?")
_LIGATURES = (("ffi", "\ufb03"), ("ffl", "\ufb04"), ("ff", "\ufb00"), ("fi", "\ufb01"),
              ("fl", "\ufb02"))
SYNONYMS = {
    "use": "employ", "uses": "employs", "used": "employed", "using": "employing",
    "show": "demonstrate", "shows": "demonstrates", "method": "approach", "methods": "approaches",
    "results": "findings", "improve": "enhance", "improves": "enhances", "large": "big",
    "small": "little", "however": "nevertheless", "propose": "present", "important": "crucial",
    "significant": "substantial", "significantly": "substantially", "new": "novel",
    "different": "distinct", "several": "multiple", "many": "numerous", "often": "frequently",
    "also": "additionally", "approach": "technique", "model": "system", "models": "systems",
    "performance": "effectiveness", "task": "problem", "tasks": "problems", "based": "founded",
    "each": "every", "shown": "demonstrated", "obtain": "get", "achieve": "attain",
    "between": "among", "provides": "offers", "increase": "rise", "allows": "enables",
}


@dataclass(frozen=True)
class Built:
    """A case built by rule from one paper: the paper's name and the kind of case (what the
    benches count by)."""

    paper: str
    kind: str


@dataclass(frozen=True)
class Case(Built):
    """A quote to locate, where it came from, and whether it should be verified (a positive
    kind is a genuine span; a negative one an edit or a fabrication)."""

    quote: str
    page: int | None = None
    """Where the genuine span starts (None for a fabricated quote)."""
    line: int | None = None

    @property
    def positive(self) -> bool:
        return self.kind in POSITIVE_KINDS


@dataclass(frozen=True)
class Word:
    text: str
    line: int  # index into Body.lines
    joined: bool = False  # a word a hyphen split across a line break


class Body:
    """The body's words in reading order (up to the references), as a reader copies them."""

    def __init__(self, name: str, paper: Paper) -> None:
        self.name = name
        self.lines = _body_lines(paper)
        self.words = _reader_words(self.lines)
        self.key = " " + " ".join(_key(w.text) for w in self.words) + " "
        self._names: list[str] | None = None

    @property
    def names(self) -> list[str]:
        """Name-like words and metric names of the body (computed once)."""
        if self._names is None:
            self._names = named_terms(" ".join(w.text for w in self.words))
        return self._names

    def span(self, start: int, length: int) -> list[Word] | None:
        """Words ``start..start+length`` when they are prose that occurs once in the paper."""
        words = self.words[start:start + length]
        if start < 0 or len(words) < length:
            return None
        prose = sum(bool(PROSE.fullmatch(w.text)) for w in words)
        if not (_wordy(words[0].text) and _wordy(words[-1].text)) or prose < 0.7 * length or self.occurrences(" ".join(w.text for w in words)) != 1:
            return None
        return words

    def occurrences(self, text: str) -> int:
        return self.key.count(" " + " ".join(_key(w) for w in text.split()) + " ")

    def case(self, kind: str, words: list[Word], quote: str | None = None) -> Case:
        head = self.lines[words[0].line]
        return Case(self.name, kind, quote or " ".join(w.text for w in words), head.page, head.n)

    def boundaries(self, kind: str) -> list[int]:
        """Indices of words that open a new line / column / page, or that were joined."""
        found = []
        for i in range(1, len(self.words)):
            a, b = self.lines[self.words[i - 1].line], self.lines[self.words[i].line]
            joined = kind == "hyphenated" and self.words[i].joined
            if joined or (a is not b and kind == _break_kind(a, b)):
                found.append(i)
        return found


def genuine_cases(body: Body, rng: random.Random, n: int) -> list[Case]:
    """Up to ``n`` genuine quotes of every kind: one line, across breaks, ligatures."""
    cases: list[Case] = []
    for kind in ("line", "cross_line", "cross_column", "cross_page", "hyphenated"):
        if kind == "line":
            starts = [i for i in range(len(body.words)) if i == 0
                      or body.words[i - 1].line != body.words[i].line]
            offsets = (0, 0)
        else:
            starts, offsets = body.boundaries(kind), (3, 9)
        for start in rng.sample(starts, len(starts)):
            length = rng.randint(8, 11) if kind == "line" else rng.randint(10, 25)
            words = body.span(start - rng.randint(*offsets), length)
            if words and (kind != "line" or words[0].line == words[-1].line):
                cases.append(body.case(f"genuine_{kind}", words))
            if sum(c.kind == f"genuine_{kind}" for c in cases) >= n:
                break
    cases += _ligature(body, rng, n)
    return cases


def _ligature(body: Body, rng: random.Random, n: int) -> list[Case]:
    cases: list[Case] = []
    starts = [i for i, w in enumerate(body.words) if any(a in w.text for a, _ in _LIGATURES)]
    for start in rng.sample(starts, len(starts)):
        words = body.span(start - rng.randint(0, 6), rng.randint(8, 20))
        if words:
            quote = " ".join(w.text for w in words)
            for plain, glyph in _LIGATURES:
                quote = quote.replace(plain, glyph)
            cases.append(body.case("genuine_ligature", words, quote))
        if len(cases) >= n:
            break
    return cases


def random_spans(body: Body, rng: random.Random, length: tuple[int, int],
                 tries: int = 400) -> list[list[Word]]:
    """Prose spans at random places (each occurs once in the paper)."""
    spans = []
    for _ in range(tries):
        words = body.span(rng.randrange(max(1, len(body.words))), rng.randint(*length))
        if words:
            spans.append(words)
    return spans


def _break_kind(a: Line, b: Line) -> str:
    if a.page != b.page:
        return "cross_page"
    if a.box is not None and b.box is not None and b.box.y0 < a.box.y0 - 20 and \
            b.box.x0 > a.box.x0 + 100:
        return "cross_column"
    return "cross_line"


def _body_lines(paper: Paper) -> list[Line]:
    end = next(((s.page, s.line) for s in paper.sections if s.kind == "references"), None)
    return [ln for ln in paper.lines() if end is None or (ln.page, ln.n) < end]


def _reader_words(lines: list[Line]) -> list[Word]:
    words: list[Word] = []
    carry = ""
    for li, line in enumerate(lines):
        parts = line.text.split()
        for j, part in enumerate(parts):
            text, joined = (carry + part, True) if carry and j == 0 else (part, False)
            carry = ""
            nxt = lines[li + 1].text.split()[:1] if li + 1 < len(lines) else []
            if (j == len(parts) - 1 and len(text) > 2 and text.endswith("-") and text[-2].isalpha()
                    and nxt and nxt[0][:1].islower()):
                carry = text if "-" in text[:-1] else text[:-1]
                continue
            words.append(Word(text, li - 1 if joined else li, joined))
    return words


def _wordy(word: str) -> bool:
    return sum(c.isalnum() for c in word) >= 2


def _key(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalnum())
