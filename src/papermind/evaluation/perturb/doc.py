"""The text a flaw planter edits: pages of lines addressed by their number in the original
text, every planted line tagged (perturb.flaws, perturb.table_flaws)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from papermind.domain import Line, Paper

Site = tuple[str, str]
"""What a planter returns: (the original line, '' for an inserted one; a detail)."""


@dataclass
class Doc:
    """The text as pages of lines. Edits and insertions address lines by their number in the
    original text (``origin``) and leave a tag on every planted line."""

    pages: list[list[str]]
    tags: list[list[str]] = field(default_factory=list)
    origin: list[list[int]] = field(default_factory=list)
    tag: str = ""

    @classmethod
    def of(cls, text: str) -> Doc:
        pages = [p.split("\n") for p in text.replace("\r\n", "\n").split("\f")]
        return cls(pages, [[""] * len(p) for p in pages],
                   [list(range(1, len(p) + 1)) for p in pages])

    def line(self, page: int, line: int) -> str:
        return self.pages[page - 1][self.origin[page - 1].index(line)]

    def edit(self, page: int, line: int, text: str) -> None:
        at = self.origin[page - 1].index(line)
        self.pages[page - 1][at] = text
        self.tags[page - 1][at] = self.tag

    def insert_after(self, page: int, line: int, text: str) -> None:
        at = self.origin[page - 1].index(line) + 1
        self.pages[page - 1].insert(at, text)
        self.tags[page - 1].insert(at, self.tag)
        self.origin[page - 1].insert(at, 0)

    def where(self, tag: str) -> tuple[int, int]:
        for p, tags in enumerate(self.tags, start=1):
            if tag in tags:
                return p, tags.index(tag) + 1
        raise KeyError(tag)

    def text(self) -> str:
        return "\f".join("\n".join(lines) for lines in self.pages)

    def rewrite_one(self, lines: Sequence[Line], rng: random.Random, used: set[tuple[int, int]],
                    rewrite: Callable[[Line], tuple[str, str] | None], *,
                    as_parsed: bool = True) -> Site | None:
        """Try ``lines`` in random order: the first free one (with ``as_parsed``, only one
        whose text reads as the parser read it) that ``rewrite`` turns into (new text,
        detail) is written and marked used; its site."""
        for line in rng.sample(list(lines), len(lines)):
            if not free(used, line.page, line.n) or (
                    as_parsed and self.line(line.page, line.n) != line.text):
                continue
            if (rewritten := rewrite(line)) is not None:
                self.edit(line.page, line.n, rewritten[0])
                used.add((line.page, line.n))
                return line.text, rewritten[1]
        return None


def free(used: set[tuple[int, int]], page: int, line: int) -> bool:
    """Whether no flaw was planted within two lines of (page, line)."""
    return all((page, n) not in used for n in range(line - 2, line + 3))


def body_lines(paper: Paper) -> set[tuple[int, int]]:
    """(page, line) of every line of a body paragraph: not a heading, caption, table row or
    bibliography entry."""
    return {(s.page, s.line) for p in paper.paragraphs for s in p.segments}


def sentence_lines(paper: Paper) -> list[Line]:
    """Body lines that end a sentence of eight words or more (no table rows)."""
    body = body_lines(paper)
    return [ln for ln in paper.lines() if ln.text.rstrip().endswith(".")
            and len(ln.text.split()) >= 8 and (ln.page, ln.n) in body
            and not ln.text.lstrip().startswith("|")]
