"""The safe calculator: arithmetic and comparisons only, never eval."""

from __future__ import annotations

import pytest

from papermind.workflows.deep_qa.calculator import CalculatorError, evaluate, format_value


@pytest.mark.parametrize(("expression", "expected"), [
    ("0.863 - 0.843", 0.02), ("14,100 / 3", 4700.0), ("93.4% - 77.1%", 0.163),
    ("max(1, 5, 3) * 2", 10.0), ("abs(-2.5)", 2.5), ("round(2.345, 2)", 2.35),
    ("(1 + 2) ** 2", 9.0), ("7 // 2 + 7 % 2", 4.0), ("2 \u00d7 3 \u2212 1", 5.0),
])
def test_arithmetic(expression: str, expected: float) -> None:
    assert evaluate(expression) == pytest.approx(expected)


def test_comparisons_chain() -> None:
    assert evaluate("0.863 > 0.843") is True
    assert evaluate("1 < 2 < 2") is False
    assert format_value(evaluate("14100 >= 4640")) == "True"
    assert format_value(14100.0) == "14100" and format_value(0.1 + 0.2) == "0.3"


@pytest.mark.parametrize("expression", [
    "__import__('os').system('echo hi')", "open('x')", "x + 1", "(1).real", "[1, 2]",
    "lambda: 1", "2 ** 1000", "1 / 0", "'a' * 3", "True + 1", "", "1 if 2 else 3",
    "max()", "round(1, 2, 3)", "10 ** 99 * 10 ** 99",
])
def test_rejects_anything_but_arithmetic(expression: str) -> None:
    with pytest.raises(CalculatorError):
        evaluate(expression)
