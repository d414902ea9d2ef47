"""The flow index shows a line-end hyphen as the paper's block text decided it."""

from __future__ import annotations

from papermind.domain import Paragraph, Segment
from papermind.grounding.index import FlowIndex, dropped_hyphens
from tests.grounding.paper_builder import page, paper

LINES = ["the model's gra-", "dient flows through self-", "attention layers"]


def _paragraph() -> Paragraph:
    """As ingestion joins LINES: 'gra-' + 'dient' joined, 'self-' + 'attention' kept."""
    text = "the model's gradient flows through self-attention layers"
    a, b = len(LINES[0]) - 1, len(LINES[1])
    return Paragraph(id="p1", text=text, segments=[
        Segment(start=0, end=a, page=1, line=1, line_start=0, line_end=a),
        Segment(start=a, end=a + b, page=1, line=2, line_start=0, line_end=b),
        Segment(start=a + b, end=len(text), page=1, line=3, line_start=0, line_end=len(LINES[2]))])


def test_quote_text_follows_the_blocks_join() -> None:
    built = paper(page(1, LINES), paragraphs=[_paragraph()])
    index = FlowIndex(built)
    assert dropped_hyphens(built) == {(1, 1)}
    assert index.span_text(0, len(index.tokens) - 1) == built.paragraphs[0].text
    assert "gradient" in index.flat and "self-attention" in index.flat


def test_without_a_block_the_hyphen_stays_and_no_space_enters_the_word() -> None:
    index = FlowIndex(paper(page(1, LINES)))
    assert index.span_text(0, len(index.tokens) - 1) == (
        "the model's gra-dient flows through self-attention layers")
