"""Cited line ids materialised into Evidence, with the quote checked against them."""

from __future__ import annotations

from papermind.grounding import GroundingEngine
from papermind.workflows.ports import Grounder
from tests.grounding.paper_builder import references_paper, sample_paper

PAPER = sample_paper()
ENGINE = GroundingEngine()


def test_cited_lines_become_the_anchor_and_their_exact_text() -> None:
    e = ENGINE.cite(PAPER, "1:1-2")
    assert e.found and e.method == "lines" and e.cited == "1:1-2"
    assert e.anchor is not None and (e.anchor.page, e.anchor.line_start, e.anchor.line_end) == (1, 1, 2)
    assert len(e.anchor.boxes) == 2 and e.anchor.page_end is None
    assert e.matched_text.startswith("Deep networks are trained with stochastic gra-dient descent.")
    assert e.support.verdict == "unchecked" and not e.verified


def test_a_span_across_a_page_break() -> None:
    e = ENGINE.cite(PAPER, "1:6-2:1")
    assert e.anchor is not None and e.anchor.label() == "p. 1, l. 6 - p. 2, l. 1"
    assert e.matched_text.endswith("Table 2 shows. Figure 3: Accuracy per epoch on CIFAR-10.")


def test_unknown_ids_are_unfound_with_the_reason() -> None:
    e = ENGINE.cite(PAPER, "1:2-9")
    assert not e.found and e.reasons == ["the paper has no line 1:2-9"]
    e = ENGINE.cite(PAPER, "in the introduction")
    assert not e.found and "no line ids" in e.reasons[0]


def test_unknown_ids_with_a_quote_code_finds_anchor_on_the_quote() -> None:
    e = ENGINE.cite(PAPER, "100:200", quote="reaches 84.7% accuracy")
    assert e.found and e.cited == "100:200" and e.anchor is not None
    assert (e.anchor.page, e.anchor.line_start) == (1, 2) and e.method != "lines"
    assert "the paper has no line 100:200; the quote was found at p. 1, l. 2" in e.notes[0]
    changed = ENGINE.cite(PAPER, "100:200", quote="reaches 89.7% accuracy")  # not cosmetic
    assert not changed.found and changed.reasons == ["the paper has no line 100:200"]


def test_a_quote_inside_or_next_to_the_cited_lines_keeps_them() -> None:
    inside = ENGINE.cite(PAPER, "1:2-3", quote="reaches 84.7% accuracy")
    assert inside.anchor is not None and (inside.anchor.line_start, inside.anchor.line_end) == (2, 3)
    assert inside.notes == []
    near = ENGINE.cite(PAPER, "1:2", quote="after 200 epochs, which is state-of-the-art")
    assert near.anchor is not None and (near.anchor.line_start, near.anchor.line_end) == (2, 4)
    assert "runs past the cited lines" in near.notes[0]


def test_a_quote_found_elsewhere_moves_the_anchor_with_a_note() -> None:
    e = ENGINE.cite(PAPER, "1:1", quote="the batch size is not")
    assert e.anchor is not None and (e.anchor.page, e.anchor.line_start) == (2, 3)
    assert e.cited == "1:1" and "the anchor moved there" in e.notes[-1]


def test_a_fabricated_quote_with_valid_ids_is_not_found() -> None:
    e = ENGINE.cite(PAPER, "1:2", quote="a sentence the paper never wrote anywhere at all")
    assert not e.found and e.anchor is None and e.matched_text == ""
    assert e.cited == "1:2" and "the quote is not in the paper" in e.reasons[0]
    title = ENGINE.cite(PAPER, "1:1", quote="The method uses a greedy algorithm to select "
                        "passages", claim="The method uses a greedy algorithm.")
    assert not title.found and not title.verified


def test_a_claim_runs_the_code_support_checks() -> None:
    ok = ENGINE.cite(PAPER, "1:2-3", claim="The model reaches 84.7% accuracy on CIFAR-10.")
    assert ok.found and ok.support.verdict == "unchecked" and ok.claim
    bad = ENGINE.cite(PAPER, "1:2-3", claim="The model reaches 94.7% accuracy on CIFAR-10.")
    assert bad.found and bad.support.by == "code" and bad.support.verdict != "supported"
    assert "94.7%" in bad.support.reason


def test_engine_is_a_grounder_and_indexes_each_paper_once() -> None:
    engine = GroundingEngine(max_papers=1)
    grounder: Grounder = engine
    e = grounder.ground(PAPER, "reaches 84.7% accuracy", "accuracy is 84.7%")
    assert e.found and e.support.verdict == "unchecked"
    assert engine.locator(PAPER) is engine.locator(PAPER)
    refs = references_paper()
    ref = grounder.resolve_reference(refs, "Ho et al., 2020")
    assert ref is not None and ref.key == "ho2020"
    assert engine.check_reference(refs, "Smith, 1999").reference is None
    first = engine.locator(PAPER)
    engine.locator(refs)  # evicts PAPER (max_papers=1)
    assert engine.locator(PAPER) is not first


def test_a_quote_that_differs_from_the_cited_lines_keeps_them_and_says_how() -> None:
    e = ENGINE.cite(PAPER, "1:2-3", quote="The efficient model reaches 85.7% accuracy on CIFAR-10")
    assert e.anchor is not None and (e.anchor.line_start, e.anchor.line_end) == (2, 3)
    assert "the quote differs from the text at the cited lines" in e.notes[-1]
    assert "number" in e.notes[-1] and e.method == "lines"
