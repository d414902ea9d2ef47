"""A report's evidence items wherever they sit, and the words each highlights."""

from __future__ import annotations

from papermind.domain import Anchor, Evidence, Line, Page, Paper
from papermind.reports import evidence_json
from papermind.services.report_marks import evidence_items, highlights

PAPER = Paper(id="p1", pages=[Page(number=1, lines=[
    Line(page=1, n=1, text="We route tokens to experts."),
    Line(page=1, n=2, text="The load stays balanced.")])])


def test_evidence_is_found_anywhere_and_keyed_by_span_and_text() -> None:
    found = Evidence(quote="tokens to", anchor=Anchor(paper_id="p1", page=1, line_start=1,
                                                     line_end=1), matched_text="tokens to")
    other = found.model_copy(update={"anchor": found.anchor.model_copy(  # type: ignore[union-attr]
        update={"paper_id": "p2"})})
    unfound = Evidence(quote="nowhere")
    report = {"points": [{"evidence": [evidence_json(found)]}],
              "answer": {"claims": [{"evidence": [evidence_json(unfound), evidence_json(other)]}]}}
    assert [e["quote"] for e in evidence_items(report)] == ["tokens to", "nowhere", "tokens to"]
    assert highlights(PAPER, report) == {"1-1\ntokens to": [[1, 1, 2], [1, 1, 3]]}
