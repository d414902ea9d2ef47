"""Anonymity findings that name the authors, and look-alikes that do not: a paper's own
earlier analysis, its comparison with previous methods, a third party's repository."""

from __future__ import annotations

from papermind.grounding.paper_check.anonymity import anonymity_findings
from papermind.grounding.paper_check.spots import Spot


def _kinds(*lines: str) -> list[str]:
    return [f.kind for f in anonymity_findings([Spot(t, 1, n) for n, t in enumerate(lines, 1)])]


def test_the_authors_own_cited_work_is_self_identifying() -> None:
    assert _kinds("Our recent results [12] show the same effect on larger models.") == [
        "self_identifying"]
    assert _kinds("In our previous work (Lee et al., 2020), we showed a related bound.") == [
        "self_identifying"]


def test_a_comparison_or_this_paper_s_earlier_analysis_is_not() -> None:
    assert _kinds("Comparison between our method and previous SOTA SNN methods on the SHD "
                  "dataset is shown in Table 2, with the architecture of [39].") == []
    assert _kinds("In addition, in our previous analysis, we observed some forgetting, as "
                  "reported for other methods (Smith et al., 2021).") == []
    assert _kinds("To make our results comparable with previous papers, we use 5-fold CV as "
                  "in [9, 31].") == []


def test_a_third_party_repository_is_not_the_authors_link() -> None:
    assert _kinds("Our code is available at https://github.com/someone/project for all.") == [
        "non_anonymous_link"]
    assert _kinds("The datasets is available as part of the public bgmol (MIT licence) "
                  "repository here: https://github.com/noegroup/bgmol .") == []
