"""Claims built by rule around genuine quotes, to measure ``check_claim`` (bench and tests).

The quote is the evidence; the claim restates it (should pass), rounds a number (passes by
policy), changes a number, names a dataset or metric from another paper, or points at a
table that does not exist (each should be flagged).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from papermind.evaluation.perturb.edits import change_number, number_spans
from papermind.evaluation.perturb.quotes import Body, Built

PASSING_KINDS = ("claim_restated", "claim_rounded", "claim_existing_table")


@dataclass(frozen=True)
class ClaimCase(Built):
    """A claim built around a genuine quote (its evidence)."""

    quote: str
    claim: str

    @property
    def should_pass(self) -> bool:
        return self.kind in PASSING_KINDS


def claim_cases(body: Body, others: list[Body], rng: random.Random, n: int) -> list[ClaimCase]:
    """Up to ``n`` claims of every kind around quotes that hold a number."""
    foreign = sorted({t for o in others for t in o.names
                      if len(t) >= 4 and f" {t.lower()} " not in body.key})
    tables = sorted(_table_labels(body))
    made: dict[str, int] = {}
    cases: list[ClaimCase] = []
    for words in number_spans(body, rng):
        quote = " ".join(w.text for w in words)
        for kind, claim in _claims(quote, rng, foreign, tables):
            if claim and made.get(kind, 0) < n:
                made[kind] = made.get(kind, 0) + 1
                cases.append(ClaimCase(body.name, kind, quote, claim))
        if made and min(made.values()) >= n and len(made) >= 5:
            break
    return cases


def _claims(quote: str, rng: random.Random, foreign: list[str],
            tables: list[str]) -> list[tuple[str, str | None]]:
    words = quote.split()
    rounded = re.sub(r"(?<![\d.])([1-9]\d+)\.\d+\b", lambda m: str(round(float(m.group()))), quote,
                     count=1)
    name = rng.choice(foreign) if foreign else None
    return [
        ("claim_restated", quote),
        ("claim_rounded", rounded if rounded != quote else None),
        ("claim_number_changed", change_number(words, rng, measured_only=True)),
        ("claim_foreign_name", f"{quote} on {name}" if name else None),
        ("claim_missing_table", f"{quote} (see Table 97)"),
        ("claim_existing_table", f"{quote} (see Table {rng.choice(tables)})" if tables else None),
    ]


def _table_labels(body: Body) -> set[str]:
    labels = set()
    for line in body.lines:
        match = re.match(r"^\s*Table\s+(\d+)\s*[:.]", line.text)
        if match:
            labels.add(match.group(1))
    return labels
