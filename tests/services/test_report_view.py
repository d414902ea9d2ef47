"""A stored report beside its paper: the HTML body without its own style, its evidence items
wherever they sit, and their highlight keys."""

from __future__ import annotations

from papermind.domain import Anchor, Evidence, Line, Page, Paper
from papermind.reports import evidence_json
from papermind.services.report_view import evidence_items, highlights, html_body

PAPER = Paper(id="p1", pages=[Page(number=1, lines=[
    Line(page=1, n=1, text="We route tokens to experts."),
    Line(page=1, n=2, text="The load stays balanced.")])])


def test_the_body_loses_its_own_style_and_scripts() -> None:
    page = ("<!DOCTYPE html><html><head><style>body{width:9000px}</style></head>"
            "<body class='x'><h1>R</h1><script>alert(1)</script><STYLE>p{}</STYLE>"
            "<p>ok</p></body></html>")
    assert html_body(page) == "<h1>R</h1><p>ok</p>"
    assert html_body("<p>no body</p>") == "<p>no body</p>"


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
