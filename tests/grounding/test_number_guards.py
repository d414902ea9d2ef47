"""Misquoted table values in whole papers: flagged with both anchors, without false alarms on
tick labels, table rows left in the text, counts and differences."""

from __future__ import annotations

from papermind.domain import Paper
from papermind.grounding.number_guards import is_prose, significant_digits
from papermind.grounding.paper_numbers import number_findings
from papermind.grounding.table_numbers import CellView, TableView, cell_values, check_sentence
from papermind.ingest import parse_bytes

TABLE = """Table 1: Forecasting error (nd) per data set.

|Model|ELECTRICITY|CAISO|
|---|---|---|
|N-BEATS 0.071 0.149|0.031|
|DEPTS 0.060 0.139|0.021|

"""
TICKS = "0.0 0.2 0.4 0.6 0.8 1.0 1.2 1.4 1.6\n\n"
UNPARSED = "_nd_ 0.03848 0.02401 0.02526 0.02937 0.1532\n\n"


HEAD = ("A Title For The Paper\n\nAnonymous authors\n\n## 1 INTRODUCTION\n\n"
        "Some introductory prose that is long enough to be a real paragraph of the paper.\n\n"
        "## 4 EXPERIMENTS\n\n")


def _paper(body: str) -> Paper:
    text = HEAD + TABLE + TICKS + UNPARSED + "In this section we compare the models on the "\
        f"two data sets.\n{body}\nThis closes the paragraph with a few more words of prose.\n"
    return parse_bytes(text.encode("utf-8"), "paper.txt")


def _findings(body: str) -> list[tuple[str, str]]:
    return [(f.check.stated, f.check.cell.text if f.check.cell else "")
            for f in number_findings(_paper(body))]


def test_prose_is_told_from_ticks_and_rows() -> None:
    assert is_prose("DEPTS outperforms N-BEATS on ELECTRICITY with an error of 0.139 overall.")
    assert not is_prose(TICKS.strip())
    assert not is_prose("|DAT VAT SWAD|54.3 69.5 60.1|")
    assert not is_prose("With a small enough batch size, it is 64 (ERM) 32.97 2.34 92.42 0.38")
    assert [significant_digits(x) for x in ("0.139", "69.50", "5.580%", "0.5")] == [3, 4, 4, 1]


def test_a_misquoted_value_of_a_named_row_is_flagged_with_both_anchors() -> None:
    body = "DEPTS clearly outperforms the other models, reaching 0.132 on the ELECTRICITY data."
    assert _findings(body) == [("0.132", "DEPTS 0.060 0.139")]
    paper = _paper(body)
    (finding,) = number_findings(paper)
    line = paper.page(1).line(finding.sentence_anchor.line_start)
    assert "0.132" in line.text and finding.sentence_anchor.line_end == line.n
    assert finding.check.cell is not None and finding.check.cell.table_number == "1"
    assert finding.check.cell.row == 2  # the DEPTS row: the table side of the finding


def test_values_quoted_right_or_printed_elsewhere_are_not_flagged() -> None:
    assert _findings("DEPTS clearly outperforms the other models, reaching 0.139 on ELECTRICITY.") == []
    # printed on a data line the parser did not read as a table
    assert _findings("DEPTS clearly outperforms the other models, reaching 0.1532 on TRAFFIC data.") == []
    # a tick label printed as '1.4' does not vouch for '1.41', but the '1.4' itself is fine
    assert _findings("The DEPTS curve stays flat at about 1.4 for all the periods we tried.") == []


def test_counts_coarse_numbers_and_differences_are_left_alone() -> None:
    assert _findings("We train DEPTS for 140 epochs on ELECTRICITY with batches of 64 series.") == []
    assert _findings("DEPTS reaches an error of 0.2 on ELECTRICITY after a short warm-up phase.") == []
    assert _findings("DEPTS gives an improvement of 0.143 over N-BEATS on the ELECTRICITY data.") == []


def test_a_sentence_is_judged_only_when_it_names_the_cell_s_row_column_or_metric() -> None:
    # names the table's metric (its caption's 'error'): within ten units of the last digit
    assert _findings("The error we measure for the largest data set is 0.148 in the end.") == [
        ("0.148", "N-BEATS 0.071 0.149")]
    assert _findings("The error we measure for the largest data set is 0.163 in the end.") == []
    assert _findings("Overall the average error of N-BEATS across all the runs is 0.163 here.") == [
        ("0.163", "N-BEATS 0.071 0.149")]  # names the row: within 10% is enough
    # names nothing of the table, or an aggregate the table does not print
    assert _findings("The value we measure for the largest data set is 0.148 in the end.") == []
    assert _findings("Overall the average error we measure across all the runs is 0.148 here.") == []


def test_a_spread_is_not_a_value_a_sentence_misquotes() -> None:
    table = TableView(id="t", number="1", row_labels={1: ["Ours"]}, column_labels={1: ["F1"]},
                      cells=[CellView(row=1, column=1, text="0.701 ± 0.004",
                                      values=cell_values("0.701 ± 0.004"))])
    assert check_sentence("For Ours the F1 spread across the seeds is 0.005 here.", [table]) == []
    (merged,) = check_sentence("For Ours the F1 reaches 0.706 in the end.", [table])
    assert merged.verdict == "disagrees" and merged.cell is not None  # near the value itself


def test_a_two_digit_value_is_judged_only_in_a_sentence_naming_its_row() -> None:
    table = "Table 2: Mean rank per method.\n\n|Method|Mean rank|\n|---|---|\n|Oracle|1.7|\n|Random|4.2|\n\n"

    def found(sentence: str) -> list[str]:
        text = HEAD + table + f"We rank the methods in Table 2 below.\n{sentence}\nMore words close it.\n"
        return [f.check.stated for f in number_findings(parse_bytes(text.encode(), "p.txt"))]

    assert found("As listed in Table 2, Oracle obtains a value of 1.9 in this setting.") == ["1.9"]
    assert found("As listed in Table 2, Oracle obtains a value of 1.7 in this setting.") == []
    assert found("Over all the runs we measure a mean rank of 1.9 for the methods.") == []
