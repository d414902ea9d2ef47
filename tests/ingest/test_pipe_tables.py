"""Pipe tables of text / Markdown input become Tables with cells, header and flow lines."""

from __future__ import annotations

from papermind.ingest import parse_bytes
from tests.support.eval_data import PAPER


def test_a_pipe_table_beside_its_caption_is_parsed() -> None:
    paper = parse_bytes(PAPER.encode(), "widgets.md")
    (table,) = paper.tables
    assert table.number == "1" and table.caption.startswith("Table 1: Accuracy")
    assert table.header_rows == 1
    assert [[c.text for c in row] for row in table.rows] == [
        ["Method", "Accuracy"], ["Baseline", "71.2"], ["Widget", "78.4"]]
    lines = {ref.line for ref in table.lines}
    assert all(paper.page(1).line(n).text.startswith("|") for n in lines) and len(lines) == 4


def test_pipe_rows_without_a_table_caption_are_no_table() -> None:
    text = PAPER.replace("Table 1: Accuracy on the benchmark.", "Accuracy on the benchmark.")
    assert parse_bytes(text.encode(), "widgets.md").tables == []
