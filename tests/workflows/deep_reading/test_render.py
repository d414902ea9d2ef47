"""Report rendering: JSON contract, Markdown anchors, HTML citation elements, demo label."""

from __future__ import annotations

import json
import re

from papermind.domain import Anchor, Evidence, VerificationSummary
from papermind.domain.reading import ContextInfo, Question, ReadingPoint, ReadingReport
from papermind.workflows.deep_reading.render import DEMO_LABEL, to_dict, to_html, to_markdown

GOOD = Evidence(quote="We fit a quadratic.", matched_text="We fit a quadratic.", verified=True,
                anchor=Anchor(paper_id="abc", page=3, line_start=12, line_end=14),
                method="exact", score=1.0)
BAD = Evidence(quote="<b>Invented</b> sentence.", reasons=["quote not found in the paper"])


def _report(demo: bool = False) -> ReadingReport:
    points = [ReadingPoint(id="M1", kind="method", text="Fits a quadratic.", evidence=[GOOD],
                           verdict="supported", verified=True),
              ReadingPoint(id="R1", kind="result", text="Saves 31%.", evidence=[BAD],
                           verdict="unsupported", verdict_note="none found")]
    return ReadingReport(paper_id="abc", title="A <Title>", demo_quality=demo,
                         models={"reader": "m"}, credibility="medium", points=points,
                         verification=VerificationSummary.of([GOOD, BAD]),
                         questions=[Question(text="Why quadratic?", builds_on=["M1"])],
                         context=ContextInfo(paper_tokens=900, context_tokens=900))


def test_json_contract() -> None:
    data = json.loads(json.dumps(to_dict(_report())))
    assert data["kind"] == "deep_reading" and data["paper_id"] == "abc"
    assert data["verification"] == {"total": 2, "verified": 1, "share_verified": 0.5,
                                    "unverified": ["<b>Invented</b> sentence."]}
    for key in ("demo_quality", "models", "usage", "history", "credibility", "rewrites",
                "revisions", "questions", "points"):
        assert key in data
    good, bad = (p["evidence"][0] for p in data["points"])
    assert good["anchor"]["page"] == 3 and good["anchor"]["line_start"] == 12 and good["verified"]
    assert bad["anchor"] is None and bad["verified"] is False
    assert ReadingReport.model_validate({k: v for k, v in data.items()} | {
        "verification": {k: v for k, v in data["verification"].items()
                         if k != "share_verified"}}) == _report()


def test_markdown_anchors_and_unverified_marks() -> None:
    text = to_markdown(_report())
    assert '"We fit a quadratic." (p. 3, l. 12-14)' in text
    assert "UNVERIFIED (quote not found in the paper)" in text
    assert "### R1 [UNVERIFIED; checker: unsupported]" in text
    assert "1. Why quadratic? (builds on M1)" in text and DEMO_LABEL not in text
    assert DEMO_LABEL in to_markdown(_report(demo=True))


def test_html_cites_carry_anchor_data_and_text_is_escaped() -> None:
    html = to_html(_report(demo=True))
    cites = re.findall(r'<span class="cite[^"]*"[^>]*>', html)
    assert len(cites) == 2
    assert ('class="cite" data-paper="abc" data-page="3" data-line-start="12" '
            'data-line-end="14"') in cites[0]
    assert 'class="cite unverified"' in cites[1] and 'data-page=""' in cites[1]
    assert "<b>Invented</b>" not in html and "&lt;b&gt;Invented" in html
    assert "A &lt;Title&gt;" in html and DEMO_LABEL in html
    assert html.lstrip().startswith("<!DOCTYPE html>") and "<script src" not in html
