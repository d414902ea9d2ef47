"""The exact words an anchor's text covers: mid-line ends, page breaks, hyphenated words."""

from __future__ import annotations

from papermind.domain import Anchor, Line, Page, Paper
from papermind.domain.text_layer import WordRef
from papermind.grounding.quote_words import quote_words, span_lines

PAPER = Paper(id="p", pages=[
    Page(number=1, lines=[Line(page=1, n=1, text="Routing sends every token to two"),
                          Line(page=1, n=2, text="experts, which keeps the experi-"),
                          Line(page=1, n=3, text="ments cheap and the load balanced")]),
    Page(number=2, lines=[Line(page=2, n=1, text="across all devices at once."),
                          Line(page=2, n=2, text="Nothing else is cited here.")]),
])


def refs(*words: tuple[int, int, int]) -> list[WordRef]:
    return [WordRef(page=p, line=n, index=i) for p, n, i in words]


def test_a_quote_starting_and_ending_mid_line() -> None:
    anchor = Anchor(paper_id="p", page=1, line_start=1, line_end=2)
    assert quote_words(PAPER, anchor, "every token to two experts,") == refs(
        (1, 1, 2), (1, 1, 3), (1, 1, 4), (1, 1, 5), (1, 2, 0))


def test_a_hyphenated_word_is_both_halves_and_spans_cross_pages() -> None:
    anchor = Anchor(paper_id="p", page=1, line_start=2, page_end=2, line_end=1)
    got = quote_words(PAPER, anchor, "the experi-ments cheap and the load balanced across all")
    assert got == refs((1, 2, 3), (1, 2, 4), (1, 3, 0), (1, 3, 1), (1, 3, 2), (1, 3, 3),
                       (1, 3, 4), (1, 3, 5), (2, 1, 0), (2, 1, 1))
    assert [ln.n for ln in span_lines(PAPER, anchor)] == [2, 3, 1]


def test_a_slightly_different_text_aligns_its_longest_run() -> None:
    anchor = Anchor(paper_id="p", page=1, line_start=1, line_end=1)
    assert quote_words(PAPER, anchor, "sends each token to two") == refs(
        (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4), (1, 1, 5))


def test_text_that_cannot_be_placed_covers_the_lines_whole() -> None:
    anchor = Anchor(paper_id="p", page=2, line_start=2, line_end=2)
    whole = refs((2, 2, 0), (2, 2, 1), (2, 2, 2), (2, 2, 3), (2, 2, 4))
    assert quote_words(PAPER, anchor, "completely unrelated words here") == whole
    assert quote_words(PAPER, anchor, "") == whole
