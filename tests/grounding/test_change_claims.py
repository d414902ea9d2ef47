"""Changes whose words and numbers go opposite ways: 'decreases from 0.31 to 0.42'."""

from __future__ import annotations

from papermind.grounding.change_claims import change_findings
from papermind.ingest import parse_bytes

HEAD = ("A Title For The Paper\n\nAnonymous authors\n\n## 1 INTRODUCTION\n\n"
        "Some introductory prose that is long enough to be a real paragraph of the paper.\n\n")


def _changes(sentence: str) -> list[tuple[str, str, str]]:
    text = HEAD + f"We describe the results below.\n{sentence}\nThis closes the paragraph here.\n"
    paper = parse_bytes(text.encode("utf-8"), "paper.txt")
    return [(f.verb, f.before, f.after) for f in change_findings(paper)]


def test_a_change_said_to_go_the_wrong_way_is_flagged_at_its_verb() -> None:
    assert _changes("With SDAT the robust accuracy decreases from 5.06% to 35.5% at this radius.") == [
        ("decreases", "5.06%", "35.5%")]
    assert _changes("ZO-AE-DS degrades the case studied in Table 1 from 5.06% to 35.5% overall.") == [
        ("degrades", "5.06%", "35.5%")]
    assert _changes("The new loss improves the test error from 0.21 to 0.34 on the held-out data.") == [
        ("improves", "0.21", "0.34")]  # an error improves by falling


def test_consistent_denied_and_hedged_changes_are_left_alone() -> None:
    assert _changes("With SDAT the robust accuracy increases from 5.06% to 35.5% at this radius.") == []
    assert _changes("The new loss improves the test error from 0.34 to 0.21 on the held-out data.") == []
    assert _changes("The training loss does not decrease from 0.5 to 0.7 in any of the runs.") == []
    assert _changes("We vary the learning rate, which we increase from 0.1 and decrease to 0.01.") == []


def test_a_range_of_sizes_is_not_a_change() -> None:
    assert _changes("The percent reduction in grain yield per spike ranged from 29.7 to 48.3 "
                    "across the cultivars.") == []
    assert _changes("The yield reduction per spike rose from 29.7 to 48.3 across the "
                    "cultivars we grew.") == []  # the nearer verb says the way it went
