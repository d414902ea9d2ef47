"""Code checks of a model's explanation of the passage it was handed."""

from __future__ import annotations

from papermind.grounding.explanations import (
    collapse_repeats,
    explanation_problems,
    looks_like_junk,
    moved_numbers,
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


PAIRS = ("Compared to the base model, the method improves all six benchmarks, e.g., +5.0% on "
         "VSI-Bench, +7.2% on MMVU, and +7.0% on VideoMME.")


def test_a_number_moved_to_another_name_is_withheld() -> None:
    swapped = "The method improves all six benchmarks, with +7.2% on MMVU and +5.0% on VideoMME."
    assert moved_numbers(swapped, PAIRS) == [("5.0%", "VideoMME")]
    assert any("puts 5.0% with 'VideoMME'" in p for p in explanation_problems(swapped, PAIRS))


def test_numbers_kept_with_their_names_pass() -> None:
    kept = "The method gains +7.2% on MMVU and +7.0% on VideoMME over the base model."
    assert moved_numbers(kept, PAIRS) == []
    table = "Large beats FasterViT-4 (85.4%) with 54% fewer parameters and 21% lower FLOPs."
    assert moved_numbers("It beats FasterViT-4 at 85.4% with fewer FLOPs.", table) == []
