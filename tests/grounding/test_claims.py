"""Code support checks: numbers, names, negation, direction, structure references."""

from __future__ import annotations

import pytest

from papermind.domain import Evidence
from papermind.grounding import GroundingEngine, QuoteLocator, check_claim, named_terms
from papermind.grounding.polarity import direction
from tests.grounding.paper_builder import page, paper, sample_paper

PAPER = sample_paper()
LOCATOR = QuoteLocator(PAPER)
EVIDENCE = LOCATOR.locate("The efficient model reaches 84.7% accuracy")
ENGINE = GroundingEngine()


def reasons(claim: str, evidence: Evidence = EVIDENCE) -> list[str]:
    return [f.reason for f in check_claim(claim, evidence, PAPER)]


@pytest.mark.parametrize("claim", [
    "The model reaches 84.7% accuracy on CIFAR-10.",
    "Accuracy is about 85% after 200 epochs.",  # rounding of 84.7 to the claim's precision
    "It reaches an accuracy of 0.847 on CIFAR-10.",  # a fraction for a percentage
    "Stochastic gradient descent trains the model (see Figure 3 and Section 2.1).",
    "As in Table 2, the learning rate matters; see Eq. (4) and Section 2.",
    "The result is state-of-the-art for this budget (Ho et al., 2020).",
    "Models trained on CIFAR-10s reach 84.7%.",  # a plural of a name in the context
])
def test_supported_claims_pass(claim: str) -> None:
    assert reasons(claim) == []


@pytest.mark.parametrize(("claim", "reason"), [
    ("The model reaches 86.1% accuracy on CIFAR-10.", "86.1%"),
    ("The model reaches 84.7% accuracy after 300 epochs.", "the number 300"),
    ("The model reaches 84.7% accuracy on ImageNet.", "'ImageNet'"),
    ("The model reaches 84.7% F1 on CIFAR-10.", "'f1'"),
    ("The model reaches 84.7% accuracy on the Switchboard corpus.",
     "'Switchboard' does not occur anywhere in the paper"),
    ("The model reaches 84.7% accuracy (Table 5).", "table 5 does not exist"),
    ("See Figure 9 for the accuracy.", "figure 9 does not exist"),
    ("Section 7 reports 84.7% accuracy.", "section 7 does not exist"),
    ("Eq. (12) gives the accuracy.", "equation 12 does not exist"),
    ("Appendix C reports the accuracy.", "appendix C does not exist"),
])
def test_unsupported_claims_are_flagged(claim: str, reason: str) -> None:
    got = reasons(claim)
    assert any(reason in r for r in got), got


def test_context_lines_around_the_evidence_count() -> None:
    # "200 epochs" is on the line after the quote; "Table 2" three lines further
    assert reasons("84.7% accuracy after 200 epochs") == []
    far = LOCATOR.locate("the most important hyper-parameter")
    assert any("84.7%" in r for r in reasons("accuracy is 84.7%", far))


def test_unlocated_evidence_cannot_support_a_claim() -> None:
    assert reasons("accuracy is 84.7%", Evidence(quote="x")) == [
        "the evidence was not found in the paper"]


def test_a_restated_claim_must_keep_the_evidence_numbers() -> None:
    # 200 is elsewhere in the context, but the claim swaps it into the evidence's place
    evidence = LOCATOR.locate("on CIFAR-10 after 200 epochs")
    assert check_claim("on CIFAR-10 after 200 epochs", evidence, PAPER) == []
    failures = check_claim("on CIFAR-10 after 84.7 epochs", evidence, PAPER)
    assert [(f.reason, f.contradicts) for f in failures] == [
        ("the claim says 84.7 where the cited text says 200", True)]


def test_named_terms() -> None:
    terms = named_terms("BERT gets 90 BLEU and top-1 accuracy on SQuAD v2 and ImageNet-1k; "
                        "The model uses a GPU.")
    assert {"BERT", "bleu", "top-1", "accuracy", "SQuAD", "v2", "ImageNet-1k"} <= set(terms)
    assert "The" not in terms and "GPU" not in terms


POLAR = paper(page(1, [
    "Our parser outperforms the baseline on long sentences and",
    "the larger model is not slower at test time, while the",
    "learning rate schedule improves accuracy on small data.",
]))


@pytest.mark.parametrize(("claim", "needle"), [
    ("Our parser underperforms the baseline on long sentences", "opposite direction"),
    ("the smaller model is not slower at test time", "opposite direction"),
    ("the learning rate schedule degrades accuracy on small data", "opposite direction"),
    ("the larger model is slower at test time", "drops a negation"),
    ("the learning rate schedule does not improve accuracy on small data", "negation"),
])
def test_flipped_negation_and_direction_contradict_the_cited_lines(claim: str, needle: str) -> None:
    e = ENGINE.cite(POLAR, "1:1-3", claim=claim)
    assert e.found and e.support.verdict == "contradicted" and e.support.by == "code"
    assert needle in e.support.reason, e.support.reason


def test_the_cited_lines_restated_are_not_lowered() -> None:
    for claim in ("Our parser outperforms the baseline on long sentences",
                  "the larger model is not slower at test time",
                  "The learning rate schedule improves accuracy on small data."):
        assert ENGINE.cite(POLAR, "1:1-3", claim=claim).support.verdict == "unchecked"


def test_a_paraphrase_with_the_opposite_direction_is_not_enough() -> None:
    e = ENGINE.cite(POLAR, "1:3", claim="Schedules reduce accuracy with small data")
    assert e.support.verdict in {"not_enough", "contradicted"}


@pytest.mark.parametrize(("word", "axis"), [
    ("outperforms", ("perform", 1)), ("underperformed", ("perform", -1)),
    ("lower", ("high", -1)), ("improves", ("improve", 1)), ("fewer", ("more", -1)),
    ("moreover", None), ("lowercase", None), ("dropout", None), ("model", None),
])
def test_comparison_words(word: str, axis: tuple[str, int] | None) -> None:
    assert direction(word) == axis


def test_code_verdicts_only_lower_support() -> None:
    e = ENGINE.cite(PAPER, "1:2-3", claim="The model reaches 94.7% accuracy on CIFAR-10.")
    assert e.support.verdict == "contradicted"
    from papermind.domain import Support
    assert e.with_support(Support(verdict="supported", by="checker:m")).support == e.support


def test_labels_are_compared_as_written_but_never_against_values() -> None:
    from papermind.grounding.numbers import swapped_numbers
    assert swapped_numbers(["see", "7.2.2", "for"], ["see", "4.2.2", "for"]) == [("7.2.2", "4.2.2")]
    assert swapped_numbers(["than", "12.3", "a"], ["than", "12.0.3", "a"]) == []  # footnote mark
    assert swapped_numbers(["x", "84.1", "y"], ["x", "84.7", "y"]) == [("84.1", "84.7")]
