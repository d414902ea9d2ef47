"""The words of a page with their boxes: the reader's text layer and word-exact highlights."""

from __future__ import annotations

from pydantic import Field

from papermind.domain.base import Frozen
from papermind.domain.geometry import Box


class Word(Frozen):
    """One whitespace-separated word of a flow line, where the PDF draws it."""

    line: int = Field(description="flow line number on the page (Line.n)")
    index: int = Field(description="0-based position among the line's words (line.text.split())")
    text: str = Field(description="the word as in the line's text")
    box: Box = Field(description="union of the word's character boxes (PDF points, top-left)")
    measured: bool = Field(default=True, description="False when the box is estimated from "
                                                     "the line box (characters not matched)")


class PageWords(Frozen):
    """Every flow line's words on one page, in line and word order."""

    page: int = Field(description="1-based page number")
    width: float = Field(description="page width in points")
    height: float = Field(description="page height in points")
    words: list[Word] = Field(default_factory=list)

    def by_line(self) -> dict[int, list[Word]]:
        """The words grouped by line number, in order."""
        out: dict[int, list[Word]] = {}
        for word in self.words:
            out.setdefault(word.line, []).append(word)
        return out


class WordRef(Frozen):
    """A word of the paper: page, flow line and 0-based word index within the line."""

    page: int
    line: int
    index: int
