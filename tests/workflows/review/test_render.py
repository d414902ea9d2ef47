"""Report rendering: evidence as data in the one JSON shape, the one renderer on every
surface, 'verified' only for found AND supported, findings on top."""

from __future__ import annotations

import re

from papermind import reports
from papermind.domain.review import ReviewReport
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.render import evidence_of, to_html, to_json, to_markdown
from papermind.workflows.review.report import build_report
from tests.support.review_script import run_review, script, with_lost_comment
from tests.workflows.review.paperkit import build_paper


async def _report() -> ReviewReport:
    result = await run_review(fake_gateway(script()), build_paper(findings=True))
    return build_report(result.state, models={"meta": "scripted"}, demo_quality=True,
                        usage={"tokens_in": 10, "tokens_out": 5, "cost_usd": 0.0})


async def test_markdown_has_findings_first_anchors_and_what_did_not_hold() -> None:
    md = to_markdown(await _report())
    assert md.index("Findings from ingestion") < md.index("## Recommendation")
    assert "pre-review aid" in md and "demo quality: bundled local model" in md
    assert re.search(r"\[p\. \d+, l\. \d+(-\d+)?\]\(/papers/\w+/pages/\d+\?lines=", md)
    missing = md.split("## Not verified: evidence and references")[1].split("## Metrics")[0]
    assert "cited work NOT in the bibliography" in missing and "Smith et al., 2031" in missing
    assert "found · not enough (code:" in missing
    assert "share supported" in md and "traceability (share found)" in md
    for heading in ("## Who said what", "## Disagreements and how they were settled",
                    "## Prioritised revision plan", "## Metrics", "## Usage and cost"):
        assert heading in md


async def test_every_surface_renders_an_evidence_item_the_one_way() -> None:
    report = await _report()
    md, html = to_markdown(report), to_html(report)
    for comment in report.comments:
        for item in comment.evidence:
            evidence = evidence_of(report, item)
            assert reports.markdown(evidence, details=False, status=False) in md
            assert str(reports.html(evidence, details=False, status=False)) in html
    cites = re.findall(r'<span class="cite (\w+)" data-paper="(\w+)" data-page="(\d+)"', html)
    assert len(cites) >= len(report.comments) and cites[0][1] == report.paper_id
    assert {c[0] for c in cites} >= {"verified", "not_enough"}
    assert "<script" not in html and "Ignore previous instructions" in html  # escaped finding


async def test_json_stores_evidence_as_data() -> None:
    data = to_json(await _report())
    assert data["kind"] == "review" and data["demo_quality"] is True
    evidence = [e for c in data["comments"] for e in c["evidence"]]
    assert evidence and all({"quote", "found", "anchor", "support"} <= set(e) for e in evidence)
    assert all({"page", "line_start", "page_end", "line_end", "boxes", "label"} <= set(e["anchor"])
               for e in evidence if e["found"])
    assert all(set(e["support"]) == {"verdict", "by", "reason"} for e in evidence)
    assert "location" not in data["comments"][0]
    assert all(isinstance(e, dict) for item in data["revision_plan"] for e in item["evidence"])
    assert set(data["verification"]) >= {"total", "found", "supported", "share_found",
                                         "share_supported", "references_unresolved"}
    assert data["findings"][0]["kind"] == "hidden_text"
    assert ReviewReport.model_validate(data) == ReviewReport.model_validate(data)  # round trip


async def test_verified_means_found_and_supported() -> None:
    report = await _report()
    for comment in report.comments:
        lines_ok = comment.found and comment.support == "supported"
        assert comment.verified == (lines_ok and not comment.flags)
    assert report.verification.supported == sum(
        c.found and c.support == "supported" for c in report.comments)


async def test_a_comment_says_its_status_once_and_each_flag_kind_once() -> None:
    report = await _report()
    report = with_lost_comment(report, "Bad comment")
    md, html = to_markdown(report), to_html(report)
    block = md.split("**Bad comment**")[1].split("\n- **")[0]
    assert block.count("not verified") == 1 and "NOT FOUND" not in block.split("details:")[0]
    assert block.count("flag: unresolved reference") == 1 and "×3" in block
    assert all(f"cites 'Work {n}'" in block for n in range(3)), "the details stay, folded"
    item = html.split("<strong>Bad comment</strong>")[1].split("</li>\n<li>")[0]
    head, folded = item.split('<details class="why">')
    assert head.count("not verified") == 1 and "NOT FOUND" not in head
    assert head.count("flag: unresolved reference") == 1 and "×3" in head
    assert "NOT FOUND" in folded and folded.count("cites &#39;Work") == 3
