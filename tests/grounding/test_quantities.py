"""A claim that gives another value for the quantity a cited number counts is contradicted
('the claim says 37% where the cited text says 73%'), not merely 'not enough'."""

from __future__ import annotations

from papermind.grounding import QuoteLocator, check_claim
from papermind.grounding.quantities import differing_values
from papermind.grounding.text import norm_words
from tests.grounding.paper_builder import page, paper

SURVEY = paper(page(1, [
    "Our survey of 162 papers shows that 73% of the papers do not evaluate long-form",
    "summaries with humans. The remaining papers use crowd workers or automatic metrics.",
    "We collected 1,204 questions about 312 machine learning papers."]))
LOCATOR = QuoteLocator(SURVEY)


def _verdicts(claim: str, quote: str) -> list[tuple[str, bool]]:
    evidence = LOCATOR.locate(quote)
    return [(f.reason, f.contradicts) for f in check_claim(claim, evidence, SURVEY)]


def test_another_value_of_the_same_quantity_contradicts() -> None:
    for wrong in ("37%", "27%", "75%"):
        got = _verdicts(f"{wrong} of the papers do not evaluate long-form summaries with humans.",
                        "73% of the papers do not evaluate long-form summaries with humans")
        assert got == [(f"the claim says {wrong} where the cited text says 73%", True)], got


def test_a_number_the_text_never_gives_is_only_not_enough() -> None:
    got = _verdicts("The remaining 37% of the papers use crowd workers.",
                    "The remaining papers use crowd workers")
    assert got == [("the number 37% is not in the cited text or around it", False)]


def test_the_right_value_passes_and_other_quantities_stay_apart() -> None:
    assert _verdicts("73% of the papers do not evaluate long-form summaries with humans.",
                     "73% of the papers do not evaluate long-form summaries") == []
    # 1,205 questions vs 1,204 questions: the same quantity; 300 papers names the papers
    got = _verdicts("We collected 1,205 questions about 312 machine learning papers.",
                    "We collected 1,204 questions about 312 machine learning papers")
    assert got == [("the claim says 1,205 where the cited text says 1,204", True)], got


def test_quantity_matching_rules() -> None:
    text = norm_words("top 10,000 words kept TF; 73% of the papers do not evaluate summaries")
    # one shared word is not the same quantity; a year is not a count; ties say nothing
    assert differing_values(norm_words("the top 1,000 words"), text) == []
    assert differing_values(norm_words("in 2019 of the papers do not evaluate"), text) == []
    assert differing_values(norm_words("37% of the papers do not evaluate"), text) == [
        ("37%", "73%")]
    tied = norm_words("5% of the runs fail; 7% of the runs fail")
    assert differing_values(norm_words("6% of the runs fail"), tied) == []
