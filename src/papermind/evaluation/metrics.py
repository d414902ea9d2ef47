"""Evaluation metrics: pure functions of numbers and strings (numpy only).

Decision accuracy, balanced accuracy, AUC (Mann-Whitney, ties count one half), Pearson and
Spearman (Pearson of average ranks), percentile bootstrap intervals on a fixed seed, SQuAD-style
token F1, evidence recall, macro-F1 and a paired sign-flip permutation test for run comparisons.
Undefined values (one class only, a constant series) are ``nan``, never an exception.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_SEED = 20261201
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def accuracy(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> float:
    """Share of items predicted right."""
    _same_length(truth, predicted)
    return sum(t == p for t, p in zip(truth, predicted, strict=True)) / len(truth) \
        if truth else math.nan


def balanced_accuracy(truth: Sequence[bool], predicted: Sequence[bool]) -> float:
    """Mean of the true-positive and true-negative rates (nan with one class only)."""
    _same_length(truth, predicted)
    positives = [p for t, p in zip(truth, predicted, strict=True) if t]
    negatives = [p for t, p in zip(truth, predicted, strict=True) if not t]
    if not positives or not negatives:
        return math.nan
    return (sum(positives) / len(positives) + sum(not p for p in negatives) / len(negatives)) / 2


def auc(truth: Sequence[bool], scores: Sequence[float]) -> float:
    """Area under the ROC curve: the chance a positive outscores a negative (ties: 1/2)."""
    _same_length(truth, scores)
    pos = np.array([s for t, s in zip(truth, scores, strict=True) if t], dtype=float)
    neg = np.array([s for t, s in zip(truth, scores, strict=True) if not t], dtype=float)
    if not len(pos) or not len(neg):
        return math.nan
    diff = pos[:, None] - neg[None, :]
    return float(((diff > 0).sum() + 0.5 * (diff == 0).sum()) / diff.size)


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r (nan for fewer than two items or a constant series)."""
    _same_length(x, y)
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(a) < 2:
        return math.nan
    a, b = a - a.mean(), b - b.mean()
    denominator = math.sqrt(float((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / denominator) if denominator > 0 else math.nan


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: Pearson's r of the average ranks."""
    _same_length(x, y)
    return pearson(ranks(list(x)), ranks(list(y)))


@dataclass(frozen=True)
class Interval:
    """A point estimate with its bootstrap percentile interval."""

    value: float
    low: float
    high: float

    def text(self, digits: int = 2) -> str:
        if math.isnan(self.value):
            return "n/a"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def bootstrap_ci(statistic: Callable[..., float], *columns: Sequence[object],
                 resamples: int = 1000, level: float = 0.95,
                 seed: int = DEFAULT_SEED) -> Interval:
    """Percentile interval of ``statistic(*columns)`` over item resamples (fixed seed).

    Every resample draws item indices with replacement (numpy's PCG64 on ``seed``) and applies
    the same indices to every column; resamples where the statistic is undefined are dropped.
    """
    n = len(columns[0])
    value = statistic(*columns) if n else math.nan
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        idx = rng.integers(0, n, size=n)
        got = statistic(*[[col[i] for i in idx] for col in columns])
        if not math.isnan(got):
            draws.append(got)
    if not draws:
        return Interval(value, math.nan, math.nan)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return Interval(value, float(low), float(high))


def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lower case, punctuation and articles removed, spaces folded."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


def token_f1(predicted: str, gold: str) -> float:
    """Token-overlap F1 of two answers after ``normalize_answer`` (both empty: 1)."""
    p, g = normalize_answer(predicted).split(), normalize_answer(gold).split()
    if not p or not g:
        return float(p == g)
    common = sum((Counter(p) & Counter(g)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def best_token_f1(predicted: str, golds: Sequence[str]) -> float:
    """The best F1 against any of several gold answers (QASPER keeps several)."""
    return max((token_f1(predicted, g) for g in golds), default=math.nan)


def evidence_recall(found: Sequence[Hashable], gold: Sequence[Hashable]) -> float:
    """Share of gold evidence items (paragraph ids) among those found (nan: no gold)."""
    wanted = set(gold)
    return len(wanted & set(found)) / len(wanted) if wanted else math.nan


def macro_f1(truth: Sequence[Hashable], predicted: Sequence[Hashable],
             labels: Sequence[Hashable] | None = None) -> float:
    """Unweighted mean of per-label F1 over ``labels`` (default: labels seen in ``truth``)."""
    _same_length(truth, predicted)
    labels = list(labels) if labels is not None else sorted(set(truth), key=str)
    if not labels:
        return math.nan
    scores = []
    for label in labels:
        tp = sum(t == label and p == label for t, p in zip(truth, predicted, strict=True))
        fp = sum(t != label and p == label for t, p in zip(truth, predicted, strict=True))
        fn = sum(t == label and p != label for t, p in zip(truth, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0)
    return sum(scores) / len(scores)


def paired_permutation(a: Sequence[float], b: Sequence[float], *, resamples: int = 2000,
                       seed: int = DEFAULT_SEED) -> float:
    """Two-sided p-value that paired items' mean difference ``b - a`` is zero (sign flips)."""
    _same_length(a, b)
    diff = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if not len(diff) or not diff.any():
        return 1.0
    observed = abs(diff.mean())
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(resamples, len(diff)))
    extreme = (np.abs((signs * diff).mean(axis=1)) >= observed - 1e-12).sum()
    return float((extreme + 1) / (resamples + 1))


def mean(values: Sequence[float]) -> float:
    """Mean of the defined values (nan when none)."""
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else math.nan


def _same_length(a: Sequence[object], b: Sequence[object]) -> None:
    if len(a) != len(b):
        raise ValueError(f"lengths differ: {len(a)} and {len(b)}")
