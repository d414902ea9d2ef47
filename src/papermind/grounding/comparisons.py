"""The words of comparing results: which way a metric is better, and the verbs of a claim
that one method beats another. One vocabulary for the flaw planter (evaluation/perturb/flaws)
and the check of such claims against the paper's tables (table_claims).
"""

from __future__ import annotations

import re
from typing import Literal

LOWER_BETTER = re.compile(r"error|loss|\bER\b|WER|CER|perplex|ppl|time|latency|MSE|MAE|RMSE|"
                          r"nrmse|\bnd\b|FID|regret|distance|↓|\(\s*-\s*\)", re.IGNORECASE)
"""Metric names (or marks) where a lower value is the better one."""
HIGHER_BETTER = re.compile(r"acc|f1|bleu|rouge|meteor|auc|auroc|precision|recall|\bmap\b|"
                           r"success|reward|return|score|iou|psnr|ssim|↑|\(\s*\+\s*\)",
                           re.IGNORECASE)
"""Metric names (or marks) where a higher value is the better one."""
NOT_A_METRIC = re.compile(r"#|epoch|param|size|batch|\bsteps?\b|quer|\bdim|layers?|year|"
                          r"\bn\b|number|count|seed", re.IGNORECASE)
"""Column headers of settings rather than results (counts, sizes, budgets)."""

_BETTER = (r"outperform(?:s|ed|ing)?|beat(?:s|ing)?|surpass(?:es|ed|ing)?|exceed(?:s|ed|ing)?|"
           r"(?:is|are|was|were|performs?|performed|does|do|did)\s+better\s+than|"
           r"superior\s+to|improves?\s+(?:up)?on|improves?\s+over")
_WORSE = (r"underperform(?:s|ed|ing)?|trail(?:s|ed|ing)?|"
          r"(?:is|are|was|were|performs?|performed|does|do|did)\s+worse\s+than|"
          r"inferior\s+to|falls?\s+behind|lags?\s+behind")
CLAIM_VERB = re.compile(rf"\b(?:(?P<better>{_BETTER})|(?P<worse>{_WORSE}))\b", re.IGNORECASE)
"""'A outperforms B', 'A is better than B' (better) and 'A trails B', 'A is inferior to B'."""
NEGATED = re.compile(r"\b(?:not|n't|never|fails?\s+to|failed\s+to|cannot|no\s+longer)\W+"
                     r"(?:\w+\W+)?$", re.IGNORECASE)
"""Words just before a claim verb that deny it ('does not outperform')."""

HEDGED = re.compile(r"\b(?:expect\w*|hypothes\w*|would|should|could|might|may|whether|if|"
                    r"aims?|aimed|hopes?|hoped|wants?|wanted|tr(?:y|ies|ied)|attempt\w*|"
                    r"designed|intended|likely)\b[^,.;:]*$", re.IGNORECASE)
"""Words before a claim verb in its clause that make it no assertion ('we expected A to
outperform B', 'whether A beats B')."""

RISE = re.compile(r"^(?:increas|ris|rose|grow|grew|rais|boost|improv|enhanc|gain)", re.IGNORECASE)
FALL = re.compile(r"^(?:decreas|reduc|drop|fall|fell|declin|lower|degrad|hurt|wors|deteriorat)",
                  re.IGNORECASE)
"""Verbs of a change upwards (or for the better) and downwards (or for the worse)."""
JUDGING = re.compile(r"^(?:improv|enhanc|degrad|hurt|wors|deteriorat)", re.IGNORECASE)
"""Those of them that say better or worse rather than more or less."""

Direction = Literal["higher", "lower"]


def metric_direction(text: str) -> Direction | None:
    """Which way the metric a header (or phrase) names is better, if its words say."""
    lower, higher = bool(LOWER_BETTER.search(text)), bool(HIGHER_BETTER.search(text))
    if lower != higher:
        return "lower" if lower else "higher"
    return None


def lower_is_better(text: str) -> bool:
    """Whether the header names a metric where less is better (unknown: higher is)."""
    return metric_direction(text) == "lower"
