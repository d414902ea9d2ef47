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


def test_the_caption_says_which_way_a_metric_is_better() -> None:
    table = ("Table 4: Transfer error (log-loss) on unobserved games.\n\n"
             "|Problem|Logistic Model|MaxEnt Ice|\n|---|---|---|\n|Add Highway|4.177|3.093|\n"
             "|Add Driver|4.060|3.477|\n\n")
    intro = "We compare the two models in Table 4 on the held-out games."
    assert _claims("We see from Table 4 that MaxEnt Ice outperforms the Logistic Model in all "
                   "of our tests.", table, intro) == []
    assert _claims("We see from Table 4 that the Logistic Model outperforms MaxEnt Ice in all "
                   "of our tests.", table, intro) != []


def test_a_claim_is_read_in_its_own_clause() -> None:
    table = ("Table 5: Win rates.\n\n|Method|AE2 (LC)|MT-Bench|\n|---|---|---|\n"
             "|DPO|30.2|5.52|\n|KTO|25.1|5.98|\n\n")
    intro = "We compare the methods in Table 5 on both benchmarks."
    # 'MT-Bench' is named after the claim's clause: it is the other half of the sentence
    assert _claims("The results indicate that DPO outperforms KTO on AlpacaEval 2, while the "
                   "reverse is true on MT-Bench.", table, intro) == []


def test_variants_in_the_rows_of_a_transposed_table_are_all_compared() -> None:
    table = ("Table 6: Robust accuracy (%).\n\n|Method|sAT|sTRADES (T)|sTRADES (F)|\n"
             "|---|---|---|---|\n|1-step|0.0|31.0|55.4|\n|+ N|0.3|46.9|55.9|\n"
             "|+ S|29.3|61.4|59.4|\n|+ S&N|43.8|63.0|62.6|\n\n")
    intro = "We compare the approaches in Table 6 in detail."
    assert _claims("Furthermore, sTRADES (F) outperforms sTRADES (T) by a substantial margin, "
                   "which we attribute to better adversarial examples.", table, intro) == []
