from __future__ import annotations

import pytest

from papermind.grounding.text import compact, fold, norm_token, numbers_in, split_ellipsis


@pytest.mark.parametrize(("raw", "key"), [
    ("Eﬃcient", "efficient"), ("“model”,", "model"), ("state-of-the-art", "stateoftheart"),
    ("84.7%", "84.7%"), ("1,000", "1,000"), ("-0.5", "-0.5"), ("x²", "x2"), ("Martín", "martin"),
    ("(see", "see"), ("—", ""), ("ResNet-50", "resnet50"), ("a\u00adb", "ab"),
])
def test_norm_token(raw: str, key: str) -> None:
    assert norm_token(raw) == key


def test_negation_survives_folding() -> None:
    assert norm_token("\u2260") != norm_token("=")
    assert norm_token("\u2260") == norm_token("\u0338=")  # a PDF draws the overlay first
    assert fold("\u226e") != fold("<")


def test_compact_ignores_spacing_case_and_dashes() -> None:
    assert compact("The  state–of–the–art  MODEL") == compact("the state-of-the-art model")
    assert compact("3.5 points") != compact("35 points")


def test_numbers_in() -> None:
    assert numbers_in("from 84.7% to 1,000 runs on CIFAR-10, −3 dB") == ["84.7%", "1000", "10", "-3"]


@pytest.mark.parametrize("quote", ["a b ... c d", "a b [...] c d", "a b \u2026 c d", "a b (...) c d"])
def test_split_ellipsis(quote: str) -> None:
    assert split_ellipsis(quote) == ["a b", "c d"]


def test_dots_inside_a_formula_are_not_an_omission() -> None:
    assert split_ellipsis("max j=1,...,d of x") == ["max j=1,...,d of x"]
    assert split_ellipsis("x_1,\u2026,x_n and more... then") == ["x_1,\u2026,x_n and more", "then"]
