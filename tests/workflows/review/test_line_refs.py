"""Bare line numbers from weak models are read against the lines that model was shown."""

from __future__ import annotations

import pytest

from papermind.domain import LineRef, Paper
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.line_refs import qualify
from papermind.workflows.review.report import build_report
from tests.support.review_script import METHODOLOGY, run_review, script

SHOWN = [LineRef(page=1, line=n) for n in range(10, 40)] + [LineRef(page=2, line=n)
                                                            for n in range(1, 6)]


@pytest.mark.parametrize(("cited", "read"), [
    ("12-14", "1:12-14"), ("[12]", "1:12"), ("line 12", "1:12"), ("lines 12 to 14", "1:12-14"),
    ("12, 14", "1:12, 1:14"), ("2, 3", "2:2, 2:3"),  # lines 2 and 3 were shown on page 2 only
    ("1:12-14", "1:12-14"), ("3:12-14", "3:12-14"),  # ids with a page stay as written
    ("1930-1932", "1930-1932"), ("see 12", "see 12"), ("", ""),  # not shown / not ids
])
def test_bare_numbers_get_their_page_when_unambiguous(cited: str, read: str) -> None:
    assert qualify(cited, SHOWN) == read


def test_a_number_on_two_shown_pages_stays_ambiguous() -> None:
    assert qualify("3", SHOWN) == "2:3"  # line 3 was shown on page 2 only
    assert qualify("3", [*SHOWN, LineRef(page=1, line=3)]) == "3"  # on pages 1 and 2


async def test_reviewer_citing_bare_numbers_is_found(paper: Paper) -> None:
    bare = {**METHODOLOGY, "comments": [{**METHODOLOGY["comments"][0], "lines": "14-15"}]}
    result = await run_review(fake_gateway(script(methodology_reviewer=[bare])), paper)
    (comment,) = [c for c in build_report(result.state).comments
                  if c.sender == "methodology_reviewer"]
    assert comment.cited == "1:14-15" and comment.found
    assert comment.evidence[0]["anchor"]["label"] == "p. 1, l. 14-15"
