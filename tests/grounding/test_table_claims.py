"""Claims that one table row beats another, read against the table they are about: flagged
when every compared column shows the opposite, left alone when mixed, denied, hedged or
about no table the paragraph names."""

from __future__ import annotations

from papermind.grounding.paper_numbers import table_view
from papermind.grounding.table_claims import claim_findings
from papermind.grounding.table_labels import clean_label, named_cells, transposed
from papermind.ingest import parse_bytes

HEAD = ("A Title For The Paper\n\nAnonymous authors\n\n## 1 INTRODUCTION\n\n"
        "Some introductory prose that is long enough to be a real paragraph of the paper.\n\n"
        "## 4 EXPERIMENTS\n\n")
TABLE = """Table 2: Results on the benchmark.

|Method|Accuracy|Error|
|---|---|---|
|DANN (Ganin et al.,|71.25|0.284|
|SDAT|74.80|0.252|
|CDAN w/ SDAT|76.10|0.239|

"""
BY_COLUMN = """Table 3: Average return per method.

|Env|Single|LoP|DIAYN|
|---|---|---|---|
|Average|143.4|149.9|168.1|

"""


def _claims(sentence: str, table: str = TABLE, intro: str = "We compare the methods in Table 2 "
            "and Table 3 on the benchmark data.") -> list[tuple[str, str, list[str]]]:
    text = HEAD + table + f"{intro}\n{sentence}\nThis closes the paragraph with a few more words.\n"
    paper = parse_bytes(text.encode("utf-8"), "paper.txt")
    return [(f.winner, f.loser, f.columns) for f in claim_findings(paper)]


def test_labels_are_cleaned_and_cells_named() -> None:
    assert clean_label("CDAN + MCC (Jin et al.,") == "CDAN + MCC"
    assert [clean_label(x) for x in ("Col1", "0.5 0.7", "x" * 50, "ZO-DS GE, q =")] == [""] * 4
    paper = parse_bytes((HEAD + TABLE + "Text.\n").encode(), "p.txt")
    cells = named_cells(table_view(paper.tables[0]))
    assert {(c.row_label, c.column_label, c.cell.text) for c in cells} >= {
        ("DANN", "Accuracy", "71.25"), ("SDAT", "Error", "0.252")}
    # 'SDAT' is inside 'CDAN w/ SDAT' but names its own row only
    assert len({c.row for c in cells if c.row_label == "SDAT"}) == 1


def test_a_row_said_to_beat_one_the_table_puts_ahead_is_flagged() -> None:
    assert _claims("As Table 2 shows, DANN outperforms SDAT on Accuracy (71.25 vs. 74.80).") == [
        ("DANN", "SDAT", ["Accuracy: DANN 71.25 vs. SDAT 74.8"])]
    # no column named: every column both rows fill, error read as lower-is-better
    assert _claims("Overall, SDAT is inferior to DANN in every respect we measured.") == [
        ("SDAT", "DANN", ["Accuracy: SDAT 74.8 vs. DANN 71.25", "Error: SDAT 0.252 vs. DANN 0.284"])]
    # the longer label wins: 'CDAN w/ SDAT' is not 'SDAT'
    assert _claims("In Table 2, SDAT clearly outperforms CDAN w/ SDAT on Accuracy.") != []


def test_true_mixed_denied_hedged_and_unrelated_claims_are_left_alone() -> None:
    assert _claims("As Table 2 shows, SDAT outperforms DANN on Accuracy and on Error.") == []
    assert _claims("As Table 2 shows, CDAN w/ SDAT surpasses SDAT on every metric.") == []
    assert _claims("As Table 2 shows, DANN does not outperform SDAT on Accuracy at all.") == []
    assert _claims("We expected DANN to outperform SDAT on Accuracy, but it did not.") == []
    # the paragraph names no table and neither does the sentence
    assert _claims("In the figures, DANN outperforms SDAT on Accuracy across settings.",
                   intro="We compare the methods on the benchmark data in many settings.") == []


def test_a_table_with_one_method_per_column_is_read_transposed() -> None:
    view = transposed(table_view(parse_bytes((HEAD + BY_COLUMN + "T.\n").encode(), "p.txt").tables[0]))
    assert {c.row_label for c in named_cells(view)} == {"Single", "LoP", "DIAYN"}
    assert _claims("As Table 3 shows, Single outperforms LoP on Average (143.4 vs. 149.9).",
                   table=BY_COLUMN) == [("Single", "LoP", ["Average: Single 143.4 vs. LoP 149.9"])]
    assert _claims("As Table 3 shows, DIAYN outperforms LoP on Average.", table=BY_COLUMN) == []
