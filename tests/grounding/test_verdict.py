"""The report form of evidence, the per-report summary, and the workflows' engine."""

from __future__ import annotations

from papermind.domain import VerificationSummary
from papermind.grounding import GroundingEngine, QuoteLocator, evidence_json, summary_json
from papermind.workflows.ports import Grounder
from tests.grounding.paper_builder import references_paper, sample_paper

PAPER = sample_paper()
LOCATOR = QuoteLocator(PAPER)


def test_evidence_json_has_an_anchor_only_when_verified() -> None:
    verified = evidence_json(LOCATOR.locate("reaches 84.7% accuracy"))
    assert verified["verified"] is True and verified["located_at"] is None
    assert {k: verified["anchor"][k] for k in ("page", "line_start", "line_end")} == {
        "page": 1, "line_start": 2, "line_end": 2}
    assert verified["anchor"]["label"] == "p. 1, l. 2" and len(verified["anchor"]["boxes"]) == 1
    edited = evidence_json(LOCATOR.locate(
        "The efficient model reaches 85.7% accuracy on CIFAR-10 after 200 epochs"))
    assert edited["verified"] is False and edited["anchor"] is None and edited["found"] is True
    assert edited["located_at"]["page"] == 1 and "84.7%" in edited["text"]
    missing = evidence_json(LOCATOR.locate("nothing like this is in the paper at all"))
    assert missing["anchor"] is None and missing["located_at"] is None and not missing["found"]
    for item in (verified, edited, missing):
        assert {"quote", "verified", "anchor", "score", "method", "text", "reasons"} <= set(item)


def test_summary_over_a_report() -> None:
    items = [LOCATOR.locate(q) for q in ("reaches 84.7% accuracy", "made-up words entirely here")]
    summary = VerificationSummary.of(items)
    assert (summary.total, summary.verified, summary.share_verified) == (2, 1, 0.5)
    assert summary.unverified == ["made-up words entirely here"]
    assert summary_json(items) == {"total": 2, "verified": 1, "share_verified": 0.5,
                                   "unverified": ["made-up words entirely here"]}


def test_engine_is_a_grounder_and_indexes_each_paper_once() -> None:
    engine = GroundingEngine(max_papers=1)
    grounder: Grounder = engine
    e = grounder.ground(PAPER, "reaches 84.7% accuracy", "accuracy is 84.7%")
    assert e.verified
    assert engine.locator(PAPER) is engine.locator(PAPER)
    refs = references_paper()
    ref = grounder.resolve_reference(refs, "Ho et al., 2020")
    assert ref is not None and ref.key == "ho2020"
    assert engine.check_reference(refs, "Smith, 1999").reference is None
    first = engine.locator(PAPER)
    engine.locator(refs)  # evicts PAPER (max_papers=1)
    assert engine.locator(PAPER) is not first
