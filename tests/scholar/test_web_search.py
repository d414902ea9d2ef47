"""Deep QA's web strategy over the scholarly sources: external evidence, never verified."""

from __future__ import annotations

import pytest

from papermind.config import ScholarSettings
from papermind.llm.testing import fake_gateway
from papermind.scholar.cache import MemoryCache
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.container import Container
from papermind.services.qa import qa_parts
from papermind.services.runner import run_graph
from papermind.services.scholar_search import ScholarWebSearch
from papermind.workflows.deep_qa.graph import build_graph
from tests.scholar.conftest import Mocks
from tests.workflows.deep_qa.fakes import Library, context, judge, or_judge


def _settings(mocks: Mocks) -> ScholarSettings:
    return ScholarSettings(allow_hosts=["127.0.0.1"], enabled=True, openalex_url=mocks.openalex.base_url,
                           crossref_url=mocks.crossref.base_url, timeout_s=0.5,
                           backoff_base_s=0.05, max_retries=1, min_interval_s={})


async def test_results_carry_title_authors_year_doi_and_abstract(mocks: Mocks) -> None:
    search = ScholarWebSearch(_settings(mocks), MemoryCache())
    results = await search.search("pre-training deep bidirectional transformers", 3)
    bert = results[0]
    assert bert.title.startswith("BERT") and bert.year in (2018, 2019)
    assert "Jacob Devlin" in bert.snippet
    assert any("We introduce a new language representation model" in r.snippet for r in results)
    assert any(r.url == "https://doi.org/10.18653/v1/n19-1423" for r in results)


async def test_openalex_down_falls_back_to_crossref(mocks: Mocks) -> None:
    mocks.openalex.stop()
    results = await ScholarWebSearch(_settings(mocks), MemoryCache()).search(
        "long short-term memory", 3)
    assert results[0].title == "Long short-term memory"
    assert mocks.crossref.requests


def test_offered_to_the_planner_only_when_online(mocks: Mocks, home: object) -> None:
    from papermind.config import load_settings

    offline = Container(load_settings())
    try:
        assert qa_parts(offline, gateway=fake_gateway({})).web_search is None
        assert qa_parts(offline, gateway=fake_gateway({}), online=True).web_search is not None
    finally:
        offline.close()
    assert mocks.sent() == 0


async def test_deep_qa_shows_scholarly_results_as_external_evidence(mocks: Mocks) -> None:
    question = "Who introduced long short-term memory?"
    gateway = fake_gateway({
        "planner": [{"tasks": [{"id": "t1", "question": "long short-term memory",
                                "tool": "web_search"}]}, {"related_terms": []}],
        "checker": [{"sufficient": True, "missing": "", "next_query": ""},
                    or_judge({"pairs": []}), judge()],
        "answerer": [{"sentences": [{"text": "Hochreiter and Schmidhuber.", "cites": ["E1"]}]}]})
    ctx = context(gateway, Library())
    ctx.web_search = ScholarWebSearch(_settings(mocks), MemoryCache())
    result = await run_graph(build_graph(), {"question": question}, thread_id="w",
                             checkpointer=memory_checkpointer(), context=ctx)
    web = [e for e in result.state["evidence"] if e.kind == "web"]
    assert web and web[0].title == "Long short-term memory"
    assert "not grounded in a stored paper" in web[0].evidence.reasons[0]
    assert not web[0].evidence.found
    from papermind.workflows.deep_qa.render import to_markdown
    from papermind.workflows.deep_qa.report import assemble_report

    report = assemble_report(result.state, kind="deep_qa", question=question, paper_ids=[])
    assert "external: not in a stored paper (add it: `papermind add https://doi.org/" \
        "10.1162/neco.1997.9.8.1735`)" in to_markdown(report)
    from papermind.workflows.deep_qa.render import to_html

    assert '<input type="hidden" name="identifier" value="https://doi.org/' \
        '10.1162/neco.1997.9.8.1735">' in to_html(report)
    assert len(mocks.openalex.requests) == 1


@pytest.fixture(autouse=True)
def _no_real_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_BLOCK_REAL_LLM", "1")
