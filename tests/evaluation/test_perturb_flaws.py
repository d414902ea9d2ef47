"""Planted flaws: every kind on a small paper, each listed with the anchor of its line."""

from __future__ import annotations

import random

import pytest

from papermind.evaluation.perturb.flaws import KINDS, plant_flaws
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


UNQUOTED = PAPER.replace("The widget network reaches 78.4 accuracy, against 71.2 for the baseline.",
                         "The widget network is the stronger of the two on this benchmark data.")


def test_a_number_no_prose_quotes_is_stated_after_a_paragraph_naming_its_table() -> None:
    clean = parse_bytes(UNQUOTED.encode(), "w.md")
    for seed in range(4):
        (flaw,) = plant_flaws(UNQUOTED, clean, ["number_vs_table"], random.Random(seed)).flaws
        assert flaw.original == ""  # an added sentence, naming table, row and column
        assert flaw.planted.startswith("As listed in Table 1, ")
        assert any(f"{row} obtains a value of " in flaw.planted for row in ("Baseline", "Widget"))
        assert flaw.planted.endswith(" on Accuracy in this setting.")
        stated = flaw.planted.split("a value of ")[1].split()[0]
        assert stated not in ("71.2", "78.4") and stated[:3] in ("71.", "78.")
        before = clean.page(1).line(flaw.anchor.line_start - 1).text
        assert "Table 1" in before  # right after the paragraph that refers to the table


def test_citations_are_planted_in_the_text_not_in_the_bibliography() -> None:
    text = PAPER.replace("In ICML, 2019.", "In ICML, 2019, with a long list of further notes.")
    clean = parse_bytes(text.encode(), "w.md")
    bibliography = {(r.page, r.line) for r in clean.references}
    for seed in range(12):
        (flaw,) = plant_flaws(text, clean, ["missing_citation"], random.Random(seed)).flaws
        assert (flaw.anchor.page, flaw.anchor.line_start) not in bibliography
        assert "Gadgets revisited" not in flaw.planted
