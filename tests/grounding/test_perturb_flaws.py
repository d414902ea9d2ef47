"""Planted flaws: every kind on a small paper, each listed with the anchor of its line."""

from __future__ import annotations

import random

import pytest

from papermind.grounding.perturb_flaws import KINDS, plant_flaws
from papermind.ingest import parse_bytes
from tests.support.eval_data import PAPER


def test_every_kind_is_planted_at_its_anchor() -> None:
    clean = parse_bytes(PAPER.encode(), "w.md")
    flawed = plant_flaws(PAPER, clean, KINDS, random.Random(3))
    assert [f.kind for f in flawed.flaws] == list(KINDS)
    parsed = parse_bytes(flawed.text.encode(), "w.md")
    for flaw in flawed.flaws:
        assert parsed.page(flaw.anchor.page).line(flaw.anchor.line_start).text == \
            flaw.planted.strip(), flaw.kind
        assert flaw.keywords
    by_kind = {f.kind: f for f in flawed.flaws}
    assert "78.4" in by_kind["number_vs_table"].original  # a number the table holds, changed
    assert "Baseline outperforms Widget" in by_kind["baseline_not_beaten"].planted
    assert "Table 8" in by_kind["wrong_reference"].planted  # the paper has Table 1 only
    assert "et al.," in by_kind["missing_citation"].planted
    assert flawed.text.count("\n") == PAPER.count("\n") + 2  # two lines inserted


def test_unknown_kinds_and_the_limit() -> None:
    clean = parse_bytes(PAPER.encode(), "w.md")
    with pytest.raises(ValueError, match="unknown flaw kinds"):
        plant_flaws(PAPER, clean, ["typo"], random.Random(0))
    assert len(plant_flaws(PAPER, clean, KINDS, random.Random(0), limit=2).flaws) == 2
