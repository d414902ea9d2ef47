"""Report rendering: JSON contract, Markdown anchors, HTML citation elements, demo label."""

from __future__ import annotations

import json
import re

from papermind.domain import Anchor, Evidence, Support, VerificationSummary
from papermind.domain.reading import ContextInfo, Question, ReadingPoint, ReadingReport
from papermind.reports import DEMO_LABEL
from papermind.workflows.deep_reading.render import to_html, to_json, to_markdown

ANCHOR = Anchor(paper_id="abc", page=3, line_start=12, line_end=14)
GOOD = Evidence(quote="We fit a quadratic.", cited="3:12-14", matched_text="We fit a quadratic.",
                anchor=ANCHOR, method="lines", score=1.0,
                support=Support(verdict="supported", by="checker:m", reason="says so"))
FOUND_ONLY = GOOD.model_copy(update={"support": Support(
    verdict="not_enough", by="checker:m", reason="about something else")})
BAD = Evidence(quote="<b>Invented</b> sentence.", cited="9:99",
               reasons=["the paper has no line 9:99"])


def _report(demo: bool = False) -> ReadingReport:
    points = [ReadingPoint(id="M1", kind="method", text="Fits a quadratic.", evidence=[GOOD],
                           verdict="supported", verdict_by="checker:m", verified=True),
              ReadingPoint(id="M2", kind="method", text="Tokyo is big.", evidence=[FOUND_ONLY],
                           verdict="not_enough", verdict_by="checker:m",
                           verdict_note="about something else"),
              ReadingPoint(id="R1", kind="result", text="Saves 31%.", evidence=[BAD],
                           verdict="not_found", verdict_note="the paper has no line 9:99")]
    return ReadingReport(paper_id="abc", title="A <Title>", demo_quality=demo,
                         models={"reader": "m"}, credibility="medium", points=points,
                         verification=VerificationSummary.of([GOOD, FOUND_ONLY, BAD]),
                         questions=[Question(text="Why quadratic?", builds_on=["M1"])],
                         context=ContextInfo(paper_tokens=900, context_tokens=900))


def test_json_contract_uses_the_one_evidence_shape() -> None:
    data = json.loads(json.dumps(to_json(_report())))
    assert data["kind"] == "deep_reading" and data["paper_id"] == "abc"
    v = data["verification"]
    assert (v["total"], v["found"], v["verified"], v["not_enough"]) == (3, 2, 1, 1)
    for key in ("demo_quality", "models", "usage", "history", "credibility", "rewrites",
                "revisions", "questions", "points"):
        assert key in data
    good, found_only, bad = (p["evidence"][0] for p in data["points"])
    assert good["anchor"]["page"] == 3 and good["anchor"]["line_start"] == 12
    assert good["verified"] and good["found"] and good["support"]["by"] == "checker:m"
    assert found_only["found"] and not found_only["verified"]
    assert found_only["status"].startswith("found · not enough")
    assert bad["anchor"] is None and bad["verified"] is False and bad["found"] is False
    assert [p["status"] for p in data["points"]] == ["verified", "found · not enough",
                                                     "NOT FOUND"]


def test_markdown_says_verified_only_for_found_and_supported() -> None:
    text = to_markdown(_report())
    assert "### M1 [verified]" in text and "### M2 [found · not enough]" in text
    assert "### R1 [NOT FOUND]" in text
    assert "p. 3, l. 12-14" in text and "NOT FOUND (the paper has no line 9:99)" in text
    assert "found · not enough (checker:m: about something else)" in text
    blocks = {b.split(" ", 1)[0]: b for b in text.split("### ")[1:]}
    assert "verified" in blocks["M1"]
    assert "verified" not in blocks["M2"] and "verified" not in blocks["R1"].split("##")[0]
    assert "1. Why quadratic? (builds on M1)" in text and DEMO_LABEL not in text
    assert DEMO_LABEL in to_markdown(_report(demo=True))


def test_html_cites_carry_anchor_data_and_text_is_escaped() -> None:
    html = to_html(_report(demo=True))
    cites = re.findall(r'<span class="cite [^"]*"[^>]*>', html)
    assert len(cites) == 3
    assert 'class="cite verified" data-paper="abc" data-page="3"' in cites[0]
    assert 'class="cite not_enough"' in cites[1]
    assert 'class="cite not_found"' in cites[2] and "data-page" not in cites[2]
    assert '<span class="status verified">verified</span>' in html
    assert '<span class="status not_enough">found · not enough</span>' in html
    assert "<b>Invented</b>" not in html and "&lt;b&gt;Invented" in html
    assert "A &lt;Title&gt;" in html and DEMO_LABEL in html
    assert html.lstrip().startswith("<!DOCTYPE html>") and "<script src" not in html
