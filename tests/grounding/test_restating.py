"""The comparing checks look only at the cited sentences a claim restates (false alarms on
honest paraphrases found with `papermind verify` on examples/example_paper.pdf)."""

from __future__ import annotations

import pytest

from papermind.grounding import GroundingEngine
from papermind.grounding.restating import restatements
from tests.grounding.paper_builder import page, paper

ENGINE = GroundingEngine()
# examples/example_paper.pdf p. 1, l. 41-58 (abridged): negations in other sentences
SPAN = paper(page(1, [
    "We therefore treat evidence retrieval as selection under a token budget. Each passage",
    "receives a relevance score that mixes a lexical and a dense signal, following the",
    "observation that the two fail on different questions [1, 3-4]. The step is a small",
    "knapsack problem that a greedy algorithm solves within a factor of the optimum for the",
    "objective we use, and it runs in a few milliseconds. We propose BBS, a selection method",
    "that needs no training beyond the two relevance models it combines. Table 2 lists the",
    "ablations: removing the redundancy penalty lowers recall to 61.2 at 200 tokens.",
]))


def support(claim: str) -> tuple[str, str]:
    e = ENGINE.cite(SPAN, "1:1-7", claim=claim)
    return e.support.verdict, e.support.reason


@pytest.mark.parametrize("claim", [
    "Only two fail on different questions, so a score mixes lexical and dense signals.",
    "Without training beyond two relevance models, BBS works.",
    "BBS combines two relevance models.",
    "The ablation without the redundancy penalty lowers recall to 61.2 at 200 tokens.",
])
def test_honest_paraphrases_are_not_lowered(claim: str) -> None:
    assert support(claim) == ("unchecked", "")


def test_a_negation_in_another_sentence_gives_no_reason() -> None:
    # wrong ('milliseconds'), but no sentence it restates has a negation: the checker decides
    verdict, reason = support("The step runs in a few seconds.")
    assert "negation" not in reason and verdict != "contradicted"


def test_a_capitalised_first_word_is_not_a_missing_name() -> None:
    verdict, reason = support("Only BBS needs no training beyond the two relevance models.")
    assert "'Only'" not in reason and verdict == "unchecked"


def test_a_flip_in_the_restated_sentence_names_the_words_on_both_sides() -> None:
    verdict, reason = support("BBS needs training beyond the two relevance models.")
    assert verdict == "contradicted"
    assert "it says 'needs training' where the cited text says 'needs no training'" in reason


def test_a_name_replaced_at_a_sentence_start_is_still_caught() -> None:
    lines = paper(page(1, ["TEXTRUNNER uses domain-independent processing to extract tuples."]))
    e = ENGINE.cite(lines, "1:1", claim="Switchboard uses domain-independent processing to "
                    "extract tuples.")
    assert e.support.verdict == "not_enough" and "'Switchboard'" in e.support.reason


def test_claim_sentences_align_to_the_sentences_they_restate() -> None:
    text = "The model is fast. It does not need labels. Accuracy rises with data."
    (only,) = restatements("The model does not need any labels.", text)
    assert only.cited == "It does not need labels." or "labels" in only.cited
    assert restatements("Completely unrelated words about weather today.", text) == []


def test_a_name_with_a_describing_suffix_needs_its_name_only() -> None:
    lines = paper(page(1, ["We train the GloVe embeddings on news text for the task."]))
    e = ENGINE.cite(lines, "1:1", claim="The GloVe-based embeddings are trained on news text.")
    assert e.support.verdict == "unchecked", e.support.reason
