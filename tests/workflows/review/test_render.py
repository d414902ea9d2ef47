"""Report rendering: JSON evidence objects, Markdown anchors, HTML citations, findings on top."""

from __future__ import annotations

import re

from papermind.domain.review import ReviewReport
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.render import to_html, to_json, to_markdown
from papermind.workflows.review.report import build_report
from tests.workflows.review.conftest import run_review, script
from tests.workflows.review.paperkit import build_paper


async def _report() -> ReviewReport:
    result = await run_review(fake_gateway(script()), build_paper(findings=True))
    return build_report(result.state, models={"meta": "scripted"}, demo_quality=True,
                        usage={"tokens_in": 10, "tokens_out": 5, "cost_usd": 0.0})


async def test_markdown_has_findings_first_anchors_and_unverified() -> None:
    md = to_markdown(await _report())
    assert md.index("Hidden-text findings") < md.index("## Recommendation")
    assert "pre-review aid" in md and "demo quality: bundled local model" in md
    assert re.search(r"p\. \d+, l\. \d+(-\d+)?", md)
    unverified = md.split("## Unverified quotes and references")[1].split("## Metrics")[0]
    assert "UNVERIFIED reference" in unverified and "Smith et al., 2031" in unverified
    for heading in ("## Who said what", "## Disagreements and how they were settled",
                    "## Prioritised revision plan", "## Metrics", "## Usage and cost"):
        assert heading in md


async def test_html_citations_carry_page_and_lines() -> None:
    report = await _report()
    html = to_html(report)
    verified = re.findall(r'<span class="cite" data-paper="(\w+)" data-page="(\d+)" '
                          r'data-line-start="(\d+)" data-line-end="(\d+)"', html)
    assert len(verified) == sum(c.verified for c in report.comments) > 0
    assert verified[0][0] == report.paper_id
    assert 'class="cite unverified"' in html
    assert "<script" not in html and "Ignore previous instructions" in html  # escaped finding


async def test_json_evidence_items_are_objects() -> None:
    data = to_json(await _report())
    assert data["kind"] == "review" and data["demo_quality"] is True
    evidence = [e for c in data["comments"] for e in c["evidence"]]
    assert evidence and all({"quote", "verified", "anchor"} <= set(e) for e in evidence)
    assert all((e["anchor"] is None) or {"page", "line_start", "line_end"} <= set(e["anchor"])
               for e in evidence)
    assert set(data["verification"]) >= {"total", "verified", "share_verified", "unverified"}
    assert data["findings"][0]["kind"] == "hidden_text"
