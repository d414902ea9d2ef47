"""Published numbers printed beside ours, always labelled as theirs, with their source.

They were measured on other paper sets, models and protocols: a reader compares orders of
magnitude, not decimals. The figures are as issue 19 cites them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Published:
    metric: str
    value: str
    who: str
    source: str


REVIEW = (
    Published("balanced_accuracy", "0.65-0.66", "AI-Scientist reviewer (GPT-4o, ensembles)",
              "Lu et al. 2024, The AI Scientist (arXiv:2408.06292), ICLR 2022 set"),
    Published("pearson", "~0.42", "AI-Scientist reviewer vs mean human rating",
              "Lu et al. 2024, The AI Scientist (arXiv:2408.06292)"),
    Published("auc", "0.82", "the study's own review pipeline",
              "a 2026 pre-registered study of automated reviewing, ICLR submissions (as cited "
              "in issue 19)"),
    Published("auc", "0.75", "another public automated reviewer",
              "the same 2026 pre-registered study (as cited in issue 19)"),
    Published("auc", "0.84", "human reviewers", "the same 2026 pre-registered study"),
)
FLAWS = (
    Published("flaw_recall", "0.716", "best public reviewer on injected errors",
              "as cited in issue 19 (injected-error benchmark)"),
)
