"""Online, the contribution reviewer sees related work (several queries, deduplicated,
ranked) and may name it; offline the review is unchanged."""

from __future__ import annotations

import pytest

from papermind.config import ScholarSettings
from papermind.domain import Paper
from papermind.domain.scholar import FoundWork
from papermind.llm.testing import fake_gateway
from papermind.scholar.cache import MemoryCache
from papermind.services.related_work import ScholarRelatedWork, queries
from papermind.workflows.review.render import to_html, to_markdown
from papermind.workflows.review.report import build_report
from tests.scholar.conftest import Mocks
from tests.support.review_script import CONTRIBUTION, run_review, script
from tests.workflows.review.paperkit import build_paper


@pytest.fixture
def paper() -> Paper:
    return build_paper()


RELATED = [FoundWork(source="openalex", id="W1", doi="10.1/sparse", title="Sparse attention for "
                     "long contracts", authors=["Ada Byron"], year=2021, venue="ACL",
                     abstract="We read long legal contracts with sparse attention."),
           FoundWork(source="openalex", id="W2", title="Dense retrieval of clauses", year=2020)]


class FixedFinder:
    def __init__(self) -> None:
        self.asked: list[str] = []

    async def find(self, paper: Paper) -> list[FoundWork]:
        self.asked.append(paper.id)
        return RELATED


async def test_the_contribution_reviewer_sees_and_names_related_work(paper: Paper) -> None:
    missing = {**CONTRIBUTION, "comments": [*CONTRIBUTION["comments"], {
        "kind": "issue", "target": "Section 1", "content": "Missing related work: [R1] Sparse "
        "attention for long contracts reads long contracts the same way.", "lines": "",
        "quote": "", "references": [], "confidence": 0.6}]}
    gateway = fake_gateway(script(contribution_reviewer=[missing]))
    finder = FixedFinder()
    result = await run_review(gateway, paper, related_work=finder)
    assert finder.asked == [paper.id]  # the contribution reviewer only
    (call,) = gateway.calls_for(role="contribution_reviewer")
    assert "[R1] Sparse attention for long contracts. Ada Byron; 2021; ACL; doi:10.1/sparse." \
        in call.text
    assert "We read long legal contracts" in call.text and "RELATED_WORK_BEGIN" in call.text
    for role in ("methodology_reviewer", "experiment_reviewer"):
        assert "Related work found" not in gateway.calls_for(role=role)[0].text
    report = build_report(result.state)
    assert [w.title for w in report.related_work] == [w.title for w in RELATED]
    assert any(c.content.startswith("Missing related work: [R1]") for c in report.comments)
    assert "- R1: Sparse attention for long contracts (2021) doi:10.1/sparse" in to_markdown(report)
    assert '<span class="msgid">R2</span> Dense retrieval of clauses (2020)' in to_html(report)


async def test_offline_the_review_is_unchanged(paper: Paper) -> None:
    offline = fake_gateway(script())
    await run_review(offline, paper)
    (call,) = offline.calls_for(role="contribution_reviewer")
    assert "Related work" not in call.text and "RELATED_WORK" not in call.text
    report = build_report((await run_review(fake_gateway(script()), paper)).state)
    assert report.related_work == [] and "Related work from" not in to_markdown(report)
    assert "Related work from" not in to_html(report)


def test_related_work_search_queries_dedupes_and_ranks(mocks: Mocks, paper: Paper) -> None:
    finder = ScholarRelatedWork(ScholarSettings(allow_hosts=["127.0.0.1"],
        openalex_url=mocks.openalex.base_url, crossref_url=mocks.crossref.base_url,
        min_interval_s={}), MemoryCache())
    asked = queries(paper)
    assert len(asked) >= 2 and asked[0] == paper.title
    works = finder.find_sync(paper)
    assert len(mocks.openalex.requests) == min(len(asked), finder.max_queries)
    keys = [w.doi or w.title for w in works]
    assert len(keys) == len(set(keys))  # deduplicated
