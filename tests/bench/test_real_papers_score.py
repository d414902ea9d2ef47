"""The real-paper bench's rules (bench/real_papers_score.py, real_papers_report.py): title
folding, author matching and marker flags, the reference-count tolerance, stable finding
keys, label matching and precision. No papers needed."""

from __future__ import annotations

from typing import Any

import pytest

from bench import real_papers_report as report
from bench import real_papers_score as s


def _finding(**over: Any) -> dict[str, Any]:
    row = {"input": "a.pdf", "kind": "citation_without_entry", "severity": "high",
           "where": "p. 2, l. 5", "digest": s.digest("(Smith, 2020)", "m"), "message": "m"}
    return row | over


def _label(finding: dict[str, Any], label: str, **over: Any) -> dict[str, Any]:
    return {k: finding[k] for k in ("input", "kind", "where", "digest")} | {"label": label} | over


def test_titles_fold_case_spacing_punctuation_and_accents_but_nothing_else() -> None:
    assert s.title_right("VPO: Optimization Based on V -Usable Information",
                         "VPO: optimization based on V-Usable information")
    assert s.fold("Andr´ es Guzm´ an") == s.fold("Andrés Guzmán")
    assert s.title_right("《自动化学报》稿件加工样本", "自动化学报 稿件加工样本")
    assert not s.title_right("Path Gradients after Flow Matching Lorenz Vaitl",
                             "Path Gradients after Flow Matching")
    assert not s.title_right("anything", "")


def test_authors_match_as_a_set_with_alternative_spellings() -> None:
    score = s.score_authors(["SHANG Shu-Lin", "Zuo Nian-Ming"],
                            ["尚书林|Shang Shu-Lin", "左年明|Zuo Nian-Ming"])
    assert (score.matched, score.bad, score.exact) == (2, 0, True)
    reordered = s.score_authors(["B. Two", "A One"], ["A One", "B. Two"])
    assert reordered.exact
    missing = s.score_authors(["A One"], ["A One", "B. Two"])
    assert (missing.matched, missing.exact) == (1, False)
    extra = s.score_authors(["A One", "A One"], ["A One"])
    assert (extra.matched, extra.exact) == (1, False)


@pytest.mark.parametrize("name", ["Guorong Wu ˚", "6 Wei Fang", "## Abstract", "Abstract",
                                  "Qi Qi ∗", "Thesis Supervisor:", "Maider Lehr†"])
def test_an_author_with_a_marker_or_a_heading_is_flagged(name: str) -> None:
    assert s.bad_author(name)
    assert s.score_authors([name], ["Someone Else"]).bad == 1


@pytest.mark.parametrize("name", ["Zoltán Gyöngyi", "Emily Prud'hommeaux", "J. Andrew Bagnell",
                                  "尚书林"])
def test_a_plain_name_is_not_flagged(name: str) -> None:
    assert not s.bad_author(name)


def test_reference_counts_are_right_within_five_percent() -> None:
    assert s.references_right(105, 100) and s.references_right(95, 100)
    assert not s.references_right(106, 100)
    assert s.references_right(6, 6) and not s.references_right(7, 6)
    assert not s.references_right(5, 72)


def test_a_digest_survives_respacing_but_not_other_text() -> None:
    assert s.digest("Lin & Pantel (2002)", "x") == s.digest("lin &  Pantel(2002) ", "y")
    assert s.digest("Lin & Pantel (2002)", "x") != s.digest("Lin & Pantel (2001)", "x")
    assert s.digest("", "the key 'a' is defined twice") != s.digest("", "the key 'b' is defined twice")


def test_labels_match_exactly_then_by_text_when_the_line_moved() -> None:
    here = _finding()
    moved = _finding(where="p. 2, l. 9")
    other = _finding(digest=s.digest("(Jones, 2019)", "m"))
    labels = [_label(here, "false", why="in the list")]
    matched = s.match_labels([here, moved, other], labels)
    assert [m["label"] if m else None for m in matched] == ["false", "false", None]
    assert matched[0] is not None and matched[0]["why"] == "in the list"


def test_a_moved_finding_with_disagreeing_labels_stays_unlabelled() -> None:
    first, second = _finding(where="p. 1, l. 1"), _finding(where="p. 3, l. 1")
    labels = [_label(first, "true"), _label(second, "false")]
    assert s.match_labels([_finding(where="p. 9, l. 9")], labels) == [None]
    assert [m["label"] for m in s.match_labels([first, second], labels) if m] == ["true", "false"]


def test_an_unknown_label_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown label 'maybe'"):
        s.match_labels([], [_label(_finding(), "maybe")])


def test_precision_is_true_over_labelled_per_kind_and_severity() -> None:
    rows = [_finding(label="true"), _finding(label="false"), _finding(label="useless"),
            _finding(label=None), _finding(kind="duplicate_entry", severity="medium",
                                           label="true")]
    table = s.precision_table(rows)
    assert table["citation_without_entry/high"] == {"true": 1, "false": 1, "useless": 1,
                                                    "unlabelled": 1, "precision": 0.333}
    assert table["duplicate_entry/medium"]["precision"] == 1.0
    assert table["all/high"]["precision"] == 0.333
    assert list(table)[-2:] == ["all/high", "all/medium"]
    assert s.precision_table([_finding(label=None)])["all/high"]["precision"] is None


def test_metadata_figures_count_per_form_and_skip_projects() -> None:
    inputs = [{"form": "pdf", "parsed_title": "t", "title_right": True, "authors_exact": False,
               "authors_bad": 2, "references_right": True},
              {"form": "md", "parsed_title": "t", "title_right": False, "authors_bad": 0},
              {"form": "latex"}]
    figures = report.metadata_figures(inputs)
    assert figures["pdf"] == {"inputs": 1, "title_right": "1/1", "authors_exact": "0/1",
                              "references_right": "1/1", "authors_bad": 2}
    assert figures["all"]["title_right"] == "1/2" and figures["all"]["authors_exact"] == "0/1"
    assert "latex" not in figures


def test_the_page_lists_wrong_findings_by_reason_and_the_unlabelled_ones() -> None:
    wrong = [_finding(where=f"p. 1, l. {n}", label="false", why="in the list")
             for n in (3, 9, 12, 40)]
    todo = _finding(kind="duplicate_entry", severity="medium", label=None)
    findings = [*wrong, todo]
    result = {"command": "bench/real_papers.py", "code": "this branch", "cpu_s": 1.0,
              "inputs": [], "findings": findings, "precision": s.precision_table(findings),
              "precision_by_form": s.precision_table(findings, by_form=True)}
    page = report.render(result, before=result)
    assert ("- false: citation_without_entry (high) a.pdf, 4× (p. 1, l. 3; p. 1, l. 9; "
            "p. 1, l. 12; ...): in the list") in page
    assert "- duplicate_entry (medium) a.pdf p. 2, l. 5: m" in page
    assert "| citation_without_entry/high/pdf | 0 | 4 | 0 | 0 | 0% | 0% (4) |" in page
