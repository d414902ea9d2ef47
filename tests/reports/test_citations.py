"""The one evidence shape, its honest labels, and the renderers' escaping."""

from __future__ import annotations

import pytest

from papermind.domain import Anchor, Evidence, Support
from papermind.reports import (
    as_evidence,
    evidence_json,
    html,
    markdown,
    page_href,
    status_label,
    summary_json,
    text,
)

ANCHOR = Anchor(paper_id="abc", page=4, line_start=90, page_end=5, line_end=12)
FOUND = Evidence(quote="q", cited="4:90-5:12", anchor=ANCHOR, matched_text="the text",
                 method="lines", score=1.0)


@pytest.mark.parametrize(("evidence", "label"), [
    (FOUND, "found · support unchecked"),
    (FOUND.with_support(Support(verdict="supported", by="checker:m", reason="says so")),
     "verified"),
    (FOUND.with_support(Support(verdict="contradicted", by="code", reason="74.1 vs 71.4")),
     "found · contradicted (code: 74.1 vs 71.4)"),
    (FOUND.with_support(Support(verdict="not_enough", by="checker:m")),
     "found · not enough (checker:m)"),
    (Evidence(quote="q", reasons=["quote not found in the paper"]),
     "NOT FOUND (quote not found in the paper)"),
    (Evidence(quote="q", support=Support(verdict="supported", by="checker:m")),
     "NOT FOUND"),  # 'supported' without an anchor is never verified
])
def test_labels_say_what_holds(evidence: Evidence, label: str) -> None:
    assert status_label(evidence) == label
    data = evidence_json(evidence)
    assert data["status"] == label and data["verified"] is (label == "verified")
    assert as_evidence(data) == evidence


def test_the_json_shape() -> None:
    data = evidence_json(FOUND)
    assert {"quote", "cited", "claim", "found", "verified", "status", "anchor", "support",
            "text", "score", "method", "reasons", "notes"} <= set(data)
    assert {k: data["anchor"][k] for k in ("page", "line_start", "page_end", "line_end",
                                            "label")} == {
        "page": 4, "line_start": 90, "page_end": 5, "line_end": 12,
        "label": "p. 4, l. 90 - p. 5, l. 12"}
    assert data["support"] == {"verdict": "unchecked", "by": "", "reason": ""}
    assert evidence_json(Evidence(quote="x"))["anchor"] is None
    assert summary_json([FOUND, Evidence(quote="x")])["unfound"] == ["x"]


def test_links_work_for_one_page_and_for_spans_across_pages() -> None:
    assert page_href(ANCHOR) == "/papers/abc/pages/4?lines=4:90-5:12"
    assert page_href(ANCHOR, 5) == "/papers/abc/pages/5?lines=4:90-5:12"
    one = Anchor(paper_id="abc", page=2, line_start=3, line_end=5)
    assert page_href(one) == "/papers/abc/pages/2?lines=3-5"


def test_paper_text_is_data_in_every_renderer() -> None:
    hostile = FOUND.model_copy(update={"matched_text": "<script>alert(1)</script> *bold* [x](y)"})
    out = str(html(hostile))
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert 'data-lines="4:90-5:12"' in out and 'class="cite unchecked"' in out
    assert 'data-text="&lt;script&gt;alert(1)&lt;/script&gt; *bold* [x](y)"' in out
    md = markdown(hostile)
    assert "\\*bold\\*" in md and "\\[x\\](y)" in md and "&lt;script&gt;" in md
    assert text(hostile).splitlines()[0] == "[p. 4, l. 90 - p. 5, l. 12] found · support unchecked"
