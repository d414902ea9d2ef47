"""number_vs_table on small papers: only a number about the cell's own quantity is called a
misquote; settings of the run, conditions and aggregates the table lacks, and sums of cells
are left alone; the severity follows how precisely the sentence names the cell."""

from __future__ import annotations

from pathlib import Path

from papermind.domain.check import CheckFinding
from papermind.grounding.paper_check.numbers import number_check_findings
from papermind.ingest import parse_bytes, parse_file

HEAD = ("# A Paper About Denoising\n\nAnonymous authors\n\n## Abstract\n\n"
        "We study small diffusion models on two low-dimensional data sets in this paper.\n\n"
        "## 4 Experiments\n\n")
RESULTS = ("Table 1: Results on the two data sets (KL divergence, lower is better).\n\n"
           "| Model | Circle | Moons |\n|---|---|---|\n"
           "| Baseline | 0.359 | 0.989 |\n| Dual-scale | 0.341 | 0.902 |\n\n")


def _found(body: str, table: str = RESULTS) -> list[tuple[str, str]]:
    text = HEAD + table + "We compare the models on both data sets below in some detail.\n" + \
        body + "\nThis closes the paragraph with a few more words of prose.\n"
    return [(f.severity, f.message) for f in _check(text)]


def _check(text: str) -> list[CheckFinding]:
    paper = parse_bytes(text.encode(), "paper.md")
    return [f for f in number_check_findings(paper) if f.kind == "number_vs_table"]


def test_a_hyper_parameter_is_never_read_against_a_result_cell() -> None:
    assert _found("• Exponential Moving Average (EMA) of model parameters: Decay rate 0.995, "
                  "updated every 10 steps on the Moons data.") == []
    assert _found("For the Baseline on Moons we set the learning rate to 0.985 in all runs.") == []
    assert _found("We use a dropout of 0.345 for the Dual-scale model on Circle data.") == []
    assert _found("A 0.995 EMA decay is applied to the Baseline weights on Moons.") == []


def test_a_misquote_of_the_named_cell_is_high_of_its_row_only_medium() -> None:
    ((severity, message),) = _found("The Dual-scale model reaches 0.345 on Circle, the best.")
    assert severity == "high" and "0.345" in message and "'0.341'" in message
    ((severity, _),) = _found("The Dual-scale model reaches 0.345 after 200 epochs on Circle.")
    assert severity == "high"  # the epochs are when, not what, the number is
    ((severity, _),) = _found("The Dual-scale model reaches 0.345 on the first set, the best.")
    assert severity == "medium"  # its row only: the cell is a guess
    assert _found("The Dual-scale model reaches 0.341 on Circle, the best of all.") == []
    ((severity, _),) = _found("The root mean square error of the Dual-scale model on Circle is "
                              "0.345.")  # 'mean' of a metric's name is no aggregate
    assert severity == "high"


def test_a_sentence_naming_only_the_table_s_metric_is_a_hint() -> None:
    assert _found("The KL divergence we measure for the new method is 0.347 in the end.") == [
        ("low", "the text states 0.347, which disagrees with Table 1 (Table 1 prints '0.341')")]
    assert _found("The value we measure for the new method is 0.347 in the end, as planned.") == []


def test_a_metric_named_by_its_long_form_names_its_one_column() -> None:
    table = ("Table 3: Prediction quality per network.\n\n| Network | PC | nRMSE [%] |\n"
             "|---|---|---|\n| AlexNet | 0.8298 | 9.548 |\n| Ours | 0.9601 | 5.580 |\n\n")
    assert _found("For Ours the normalised root mean square error is 5.589% on the test set.",
                  table) == [("high", "the text states 5.589%, which disagrees with Table 3 "
                                      "(Table 3 prints '5.580')")]
    assert _found("For Ours the normalised root mean square error is 5.580% on the test set.",
                  table) == []


def test_a_condition_or_aggregate_the_table_does_not_print_is_left_alone() -> None:
    table = ("Table 2: English tagging accuracy per training size.\n\n"
             "| Setting | 48K | 193K |\n|---|---|---|\n| BASE | 42.2 | 41.3 |\n"
             "| PROTO | 61.9 | 68.8 |\n\n")
    assert _found("On 60K word tokens, BASE gave an accuracy of 34.4 and PROTO gave 61.2.",
                  table) == []
    assert _found("On 48K word tokens, BASE gave an accuracy of 34.4 and PROTO gave 61.2.",
                  table) == [("high", "the text states 61.2, which disagrees with Table 2 "
                                      "(Table 2 prints '61.9')")]
    assert _found("On average over both sets the error is 0.628 for the models we train.") == []
    counted = RESULTS.replace("(KL divergence", "on the 1,004 test points (KL divergence")
    assert _found("For these 388 points, the Dual-scale model reaches 0.345 on Circle.",
                  counted) == []  # a subset of the table's population
    assert _found("For all 1,004 points, the Dual-scale model reaches 0.345 on Circle.",
                  counted) != []
    assert _found("The overall error reduction from BASE to PROTO on accuracy is 68.3%.",
                  table) == []
    assert _found("BrainMoE reaches +61.2 accuracy over the PROTO baseline on 48K.", table) == []


ACL_LIKE = """# How Summaries Are Evaluated

Anonymous authors

## Abstract

We survey how summarization papers evaluate their systems with people and metrics.

## 3 Survey

We annotated every paper of the survey for the kind of human evaluation it performs.
In total, 101 out of 162 papers (62%) do not perform any human evaluation, as Table 2 shows.

Table 2: Human evaluation in the surveyed papers. {claim} of the papers do not evaluate long-form summaries with humans.

| Human evaluation | Papers | Share |
|---|---|---|
| None | 101 | 62.3% |
| Short-form only | 18 | 11.1% |
| Long-form | 43 | 26.6% |

The remaining papers rate long-form summaries with crowd workers or experts in the field.
"""


def test_a_caption_s_sum_of_two_rows_is_consistent() -> None:
    assert _check(ACL_LIKE.format(claim="73%")) == []  # 62% none + 11% short-form only
    near = ACL_LIKE.replace("62.3%", "69.0%").replace("11.1%", "4.3%").replace("26.6%", "26.7%")
    # a share of 73.3% is within 10% of the 'None' share, but it is 69.0% + 4.3%
    assert _check(near.format(claim="A share of 73.3%")) == []
    assert [f.severity for f in _check(near.format(claim="A share of 73.6%"))] == ["medium"]


def test_a_caption_is_read_against_its_own_table_for_its_named_cell() -> None:
    caption = ("Table 1: Results on the two data sets (KL divergence). The Dual-scale model "
               "reaches 0.345 on the Circle data set.\n\n")
    text = HEAD + caption + RESULTS.split("\n\n", 1)[1] + "We compare the models on both data " \
        "sets in this section, in some detail.\n"
    (found,) = _check(text)
    assert found.severity == "high" and found.message.startswith("its caption states 0.345")
    assert found.anchor is not None and "Dual-scale model reaches 0.345" in found.text


def test_no_hyper_parameter_against_a_result_table_on_the_generated_papers(
        shared_data: Path) -> None:
    folder = shared_data / "pdfs" / "generated_with_latex"
    for pdf in sorted(folder.glob("*/*.pdf")):
        for f in number_check_findings(parse_file(pdf)):
            if f.kind == "number_vs_table":
                assert not any(w in f.text.lower() for w in ("decay", "learning rate", "batch")), f
