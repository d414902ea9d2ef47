"""Metrics against values worked out by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from papermind.evaluation.metrics import (
    accuracy,
    auc,
    balanced_accuracy,
    best_token_f1,
    bootstrap_ci,
    evidence_recall,
    macro_f1,
    mean,
    paired_permutation,
    pearson,
    ranks,
    spearman,
    token_f1,
)


def test_accuracy_and_balanced_accuracy() -> None:
    assert accuracy([1, 0, 1, 1], [1, 1, 1, 0]) == 0.5  # 2 of 4 right
    # TPR 2/3, TNR 1/2 -> (2/3 + 1/2) / 2 = 7/12
    truth, pred = [True, True, True, False, False], [True, False, True, False, True]
    assert balanced_accuracy(truth, pred) == pytest.approx(7 / 12)
    assert math.isnan(balanced_accuracy([True, True], [True, False]))  # one class only
    with pytest.raises(ValueError, match="lengths differ"):
        accuracy([1], [1, 0])


def test_auc_counts_ties_as_half() -> None:
    # pairs (pos, neg): (.9,.4)=1 (.9,.1)=1 (.4,.4)=.5 (.4,.1)=1 -> 3.5 / 4
    assert auc([True, True, False, False], [0.9, 0.4, 0.4, 0.1]) == 0.875
    assert auc([True, False], [0.0, 1.0]) == 0.0
    assert math.isnan(auc([False, False], [0.1, 0.2]))


def test_pearson_and_spearman() -> None:
    # dx = (-1.5,-.5,.5,1.5), dy = (-3,-1,0,4): 11 / sqrt(5 * 26)
    assert pearson([1, 2, 3, 4], [2, 4, 5, 9]) == pytest.approx(11 / math.sqrt(130))
    assert ranks([1, 2, 2, 3]) == [1.0, 2.5, 2.5, 4.0]
    # ranks x (1,2.5,2.5,4), y (1,3,2,4): 4.5 / sqrt(4.5 * 5)
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(4.5 / math.sqrt(22.5))
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))  # constant series


def test_token_f1_macro_f1_and_evidence_recall() -> None:
    # 'cat sat' vs 'cat sat down' (articles dropped): P 1, R 2/3 -> F1 0.8
    assert token_f1("The cat sat.", "a cat sat down") == pytest.approx(0.8)
    assert token_f1("", "") == 1.0 and token_f1("dog", "cat") == 0.0
    assert best_token_f1("14,100 tweets", ["14100", "14,100 tweets"]) == 1.0
    # yes: 2/(2+1+1) = .5; no: 2/(2+1) = 2/3; maybe: 0 -> mean 7/18
    assert macro_f1(["yes", "yes", "no", "maybe"], ["yes", "no", "no", "yes"]) == \
        pytest.approx(7 / 18)
    assert evidence_recall(["p1", "p3"], ["p1", "p2"]) == 0.5
    assert math.isnan(evidence_recall(["p1"], []))
    assert mean([1.0, math.nan, 0.0]) == 0.5


def test_bootstrap_interval_on_a_fixed_seed() -> None:
    def avg(xs: list[float]) -> float:
        return sum(xs) / len(xs)

    constant = bootstrap_ci(avg, [3.0] * 5)
    assert (constant.value, constant.low, constant.high) == (3.0, 3.0, 3.0)
    # two items 0 and 1: every resample mean is 0, .5 or 1 and both ends occur
    two = bootstrap_ci(avg, [0.0, 1.0], resamples=500)
    assert (two.value, two.low, two.high) == (0.5, 0.0, 1.0)
    # the same draws computed independently: PCG64 on seed 7, indices per resample
    data = [0.2, 0.9, 0.4, 0.7, 0.1, 0.6]
    rng = np.random.default_rng(7)
    means = [float(np.mean([data[i] for i in rng.integers(0, 6, size=6)])) for _ in range(200)]
    got = bootstrap_ci(avg, data, resamples=200, seed=7)
    assert got.value == pytest.approx(29 / 60)
    assert (got.low, got.high) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])))
    assert bootstrap_ci(avg, data, resamples=200, seed=7) == got  # repeatable
    assert got.text() == f"0.48 [{got.low:.2f}, {got.high:.2f}]"


def test_paired_permutation_test() -> None:
    assert paired_permutation([0.5] * 10, [0.5] * 10) == 1.0
    # a 1-point gain on all 20 items: only the two all-same-sign flips are as extreme
    assert paired_permutation([0.0] * 20, [1.0] * 20) < 0.001
    noisy = paired_permutation([0, 1, 0, 1, 0, 1], [1, 0, 1, 0, 0, 1])
    assert noisy > 0.5
