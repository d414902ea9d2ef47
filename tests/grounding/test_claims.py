"""Claim checks: numbers, named datasets / metrics, and structure references."""

from __future__ import annotations

import pytest

from papermind.domain import Evidence
from papermind.grounding import QuoteLocator, check_claim, ground_quote, named_terms
from tests.grounding.paper_builder import sample_paper

PAPER = sample_paper()
LOCATOR = QuoteLocator(PAPER)
EVIDENCE = LOCATOR.locate("The efficient model reaches 84.7% accuracy")


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
    assert check_claim(claim, EVIDENCE, PAPER) == []


@pytest.mark.parametrize(("claim", "reason"), [
    ("The model reaches 86.1% accuracy on CIFAR-10.", "the number 86.1%"),
    ("The model reaches 84.7% accuracy after 300 epochs.", "the number 300"),
    ("The model reaches 84.7% accuracy on ImageNet.", "'ImageNet'"),
    ("The model reaches 84.7% F1 on CIFAR-10.", "'f1'"),
    ("The model reaches 84.7% accuracy (Table 5).", "table 5 does not exist"),
    ("See Figure 9 for the accuracy.", "figure 9 does not exist"),
    ("Section 7 reports 84.7% accuracy.", "section 7 does not exist"),
    ("Eq. (12) gives the accuracy.", "equation 12 does not exist"),
    ("Appendix C reports the accuracy.", "appendix C does not exist"),
])
def test_unsupported_claims_are_flagged(claim: str, reason: str) -> None:
    reasons = check_claim(claim, EVIDENCE, PAPER)
    assert any(reason in r for r in reasons), reasons


def test_context_lines_around_the_evidence_count() -> None:
    # "200 epochs" is on the line after the quote; "Table 2" three lines further
    assert check_claim("84.7% accuracy after 200 epochs", EVIDENCE, PAPER) == []
    far = LOCATOR.locate("the most important hyper-parameter")
    assert any("84.7%" in r for r in check_claim("accuracy is 84.7%", far, PAPER))


def test_unlocated_evidence_cannot_support_a_claim() -> None:
    reasons = check_claim("accuracy is 84.7%", Evidence(quote="x"), PAPER)
    assert reasons == ["the evidence was not found in the paper, so the claim is unsupported"]


def test_ground_quote_combines_locating_and_claim_checks() -> None:
    ok = ground_quote(PAPER, "reaches 84.7% accuracy", "The model reaches 84.7% accuracy")
    assert ok.verified and ok.reasons == []
    bad = ground_quote(LOCATOR, "reaches 84.7% accuracy", "The model reaches 94.7% accuracy")
    assert not bad.verified and bad.anchor is not None
    assert any("94.7%" in r for r in bad.reasons)


def test_named_terms() -> None:
    terms = named_terms("BERT gets 90 BLEU and top-1 accuracy on SQuAD v2 and ImageNet-1k; "
                        "The model uses a GPU.")
    assert {"BERT", "bleu", "top-1", "accuracy", "SQuAD", "v2", "ImageNet-1k"} <= set(terms)
    assert "The" not in terms and "GPU" not in terms


def test_a_restated_claim_must_keep_the_evidence_numbers() -> None:
    # 200 is elsewhere in the context, but the claim swaps it into the evidence's place
    evidence = LOCATOR.locate("on CIFAR-10 after 200 epochs")
    assert check_claim("on CIFAR-10 after 200 epochs", evidence, PAPER) == []
    reasons = check_claim("on CIFAR-10 after 84.7 epochs", evidence, PAPER)
    assert reasons == ["the claim says 84.7 where the evidence says 200"]
