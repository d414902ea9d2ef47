"""Numbers that agree: stated numbers against table cells, with both anchors."""

from __future__ import annotations

from papermind.domain import Box
from papermind.domain.paper import LineRef, Paragraph, Segment, Table, TableCell
from papermind.grounding.paper_numbers import number_findings, table_view
from papermind.grounding.table_numbers import check_sentence
from tests.grounding.paper_builder import page, paper


def _cell(text: str, column: int, row: int) -> TableCell:
    return TableCell(text=text, column=column,
                     box=Box(page=1, x0=100 + 60 * column, y0=300 + 12 * row, x1=140 + 60 * column,
                             y1=309 + 12 * row))


def _table() -> Table:
    texts = [["Model", "Accuracy", "F1"], ["Baseline", "71.2", "0.652"], ["Ours", "74.5", "0.688"],
             ["Ours + pretraining", "[BOLD] 75.1", "0.701 ± 0.004"]]
    rows = [[_cell(t, k, r) for k, t in enumerate(row)] for r, row in enumerate(texts)]
    return Table(id="tab1", number="2", caption="Table 2: Results.", page=1, rows=rows, header_rows=1,
                 lines=[LineRef(page=1, line=n) for n in range(10, 14)])


def _verdicts(sentence: str, named: bool = False) -> list[tuple[str, str]]:
    return [(c.stated, c.verdict) for c in check_sentence(sentence, [table_view(_table())], named=named)]


def test_restated_cells_agree_and_differences_derive() -> None:
    assert _verdicts("Ours improves accuracy from 71.2 to 74.5 over the Baseline.") == [
        ("71.2", "agrees"), ("74.5", "agrees")]
    assert _verdicts("Ours gives a 3.3 point gain in accuracy over the Baseline.") == [("3.3", "derived")]
    assert _verdicts("With pretraining, Ours reaches an F1 of 0.701.") == [("0.701", "agrees")]
    assert _verdicts("Ours reaches 74.5% accuracy.") == [("74.5%", "agrees")]  # a percentage column


def test_a_changed_number_disagrees_with_the_cell_it_restates() -> None:
    assert _verdicts("Ours improves accuracy from 71.2 to 74.8 over the Baseline.") == [
        ("71.2", "agrees"), ("74.8", "disagrees")]
    assert _verdicts("Ours gives a 3.9 point gain in accuracy over the Baseline.") == [("3.9", "disagrees")]
    assert _verdicts("As Table 2 shows, the F1 rises to 0.699.", named=True) == [("0.699", "disagrees")]


def test_numbers_unrelated_to_the_table_are_left_alone() -> None:
    assert _verdicts("We train for 200 epochs with a learning rate of 0.001 on 8 GPUs in 2021.") == []
    assert _verdicts("Section 4.2 describes the 3 datasets we use.") == []


def test_paper_findings_carry_the_sentence_and_the_cell_anchor() -> None:
    text = "In Table 2, Ours raises accuracy to 74.8 while the Baseline stays at 71.2."
    lines = page(1, [text[:40], text[40:]], top=100)
    paragraph = Paragraph(id="p1", text=text, segments=[
        Segment(start=0, end=40, page=1, line=1, line_start=0, line_end=40),
        Segment(start=40, end=len(text), page=1, line=2, line_start=0, line_end=len(text) - 40)])
    built = paper(lines, paragraphs=[paragraph], tables=[_table()])
    (finding,) = number_findings(built)
    assert finding.check.stated == "74.8" and finding.check.cell is not None
    assert finding.check.cell.text == "74.5" and finding.check.cell.table_id == "tab1"
    assert finding.sentence_anchor.label() == "p. 1, l. 1"
    assert finding.cell_anchor is not None and finding.cell_anchor.boxes[0].x0 == 160
