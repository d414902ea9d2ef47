"""Code checks of a model's explanation of the passage it was handed."""

from __future__ import annotations

from papermind.grounding.explanations import (
    collapse_repeats,
    explanation_problems,
    looks_like_junk,
)

PASSAGE = ("We propose a sparse router that sends each token to the two best-scoring experts, "
           "which reduces compute by 40% on GLUE.")


def test_a_faithful_plain_explanation_passes() -> None:
    ok = "Each token goes only to the two experts that score best, so less compute is needed."
    assert explanation_problems(ok, PASSAGE) == []


def test_invented_numbers_names_and_verdicts_fail() -> None:
    problems = explanation_problems("The text reports 92.1% on SQuAD, supported.", PASSAGE)
    joined = "; ".join(problems)
    assert "92.1%" in joined and "'SQuAD' is not in the passage" in joined
    assert "verdict" in joined


def test_repetition_copies_and_junk_fail() -> None:
    assert "repeats itself" in explanation_problems(
        "The router is sparse. The router is sparse. It saves compute.", PASSAGE)
    assert any("copies" in p for p in explanation_problems(PASSAGE, PASSAGE))
    assert looks_like_junk("lines: [1:1; follows_from]: the loss")
    assert not looks_like_junk("We use a 3:1 mix of data [12].")
    assert explanation_problems("ok", PASSAGE) == ["empty or too short"]


def test_collapse_repeats_keeps_each_sentence_once() -> None:
    assert collapse_repeats("A is B. A is B. C is D.") == "A is B. C is D."
