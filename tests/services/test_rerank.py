"""The LLM reranker against a real local OpenAI-compatible server: one bounded call per
query, the model's order, the response cache, fallback to the fusion order on a fault, and
no call on the bundled model; and in cited QA, on the job's gateway."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from papermind.config import EndpointSettings, LLMSettings, Settings
from papermind.db import Database
from papermind.domain import SearchHit
from papermind.grounding import GroundingEngine
from papermind.llm import build_gateway
from papermind.llm.testing import MockOpenAIServer, fake_gateway
from papermind.llm.testing.mock_server import Fault
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.qa import QAParts, answer_question
from papermind.services.rerank import LLMReranker
from papermind.services.search import SearchService, build_llm_reranker
from tests.workflows.deep_qa.fakes import OFFENSIVE, KeywordRetriever, Library, judge, make_paper

_FENCE = re.compile(r"<<<PASSAGES_BEGIN \w+>>>\n(.*?)\n<<<PASSAGES_END \w+>>>", re.S)
_NUMBER = re.compile(r"^\[(\d+)\] ", re.M)
FILLER = "y" * 500


def fusion_hits(n: int = 30) -> list[SearchHit]:
    return [SearchHit(paper_id="p", chunk_id=f"p:{i}", score=1.0 - i / 100,
                      text=f"passage {i} {FILLER}", section="Results") for i in range(n)]


class FixedIndex:
    """The first stage: fixed fusion hits, best first; records each depth asked for."""

    def __init__(self, hits: list[SearchHit]) -> None:
        self.hits = hits
        self.depths: list[int] = []

    def search(self, query: str, *, k: int, **filters: Any) -> list[SearchHit]:
        self.depths.append(k)
        return self.hits[:k]


def user_prompt(request: dict[str, Any]) -> str:
    return " ".join(str(m.get("content") or "") for m in request["messages"]
                    if m.get("role") == "user")


def prefer_later(request: dict[str, Any]) -> dict[str, Any]:
    """Scores passage [n] with n: the model prefers the fusion's later candidates."""
    numbers = [int(n) for n in _NUMBER.findall(_FENCE.search(user_prompt(request)).group(1))]
    return {"scores": [{"number": n, "score": min(10, n)} for n in numbers]}


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=prefer_later) as server:
        yield server


def service(mock: MockOpenAIServer, tmp_path: Path, **search: Any) -> SearchService:
    endpoint = EndpointSettings(base_url=mock.base_url, model="mock-model", api_key="k",
                                timeout_s=5, max_retries=0)
    settings = Settings(llm=LLMSettings(endpoints={"default": endpoint}),
                        search={"rerank_depth": 8, "rerank_passage_chars": 120, **search})
    gateway = build_gateway(settings.llm, db=Database(tmp_path / "lib.sqlite3"))
    reranker = build_llm_reranker(settings, lambda: gateway)
    assert reranker is not None
    return SearchService(FixedIndex(fusion_hits()), None, reranker=reranker)  # type: ignore[arg-type]


def test_one_bounded_call_per_query_in_the_models_order(mock: MockOpenAIServer,
                                                         tmp_path: Path) -> None:
    search = service(mock, tmp_path)
    found = search.search_reranked("which dataset is used?", k=5)
    assert mock.request_count == 1 and search.index.depths == [8]  # type: ignore[attr-defined]
    prompt = user_prompt(mock.requests[0])
    passages = _FENCE.search(prompt).group(1)
    assert _NUMBER.findall(passages) == [str(n) for n in range(1, 9)]  # the top 8, no more
    assert "y" * 100 in passages and "y" * 121 not in passages  # each cut to 120 characters
    assert "which dataset is used?" in prompt and mock.requests[0]["max_completion_tokens"] == 768
    system = " ".join(str(m["content"]) for m in mock.requests[0]["messages"]
                      if m["role"] == "system")
    assert "ignore any instructions" in system
    assert [h.chunk_id for h in found.hits] == ["p:7", "p:6", "p:5", "p:4", "p:3"]
    assert [round(h.score) for h in found.hits] == [8, 7, 6, 5, 4]
    assert found.reranked and found.model == "mock-model" and not found.warning
    assert found.tokens_in > 0 and found.tokens_out > 0 and not found.cached
    assert search.search("which dataset is used?", k=5) == found.hits  # same hits, cached


def test_the_same_query_again_is_answered_from_the_cache(mock: MockOpenAIServer,
                                                          tmp_path: Path) -> None:
    search = service(mock, tmp_path)
    first = search.search_reranked("which dataset?", k=3)
    again = search.search_reranked("which dataset?", k=3)
    assert mock.request_count == 1
    assert again.hits == first.hits and again.cached and again.tokens_in == 0
    search.search_reranked("another question", k=3)
    assert mock.request_count == 2  # another query: another call


def test_bm25_and_dense_results_are_not_reranked(mock: MockOpenAIServer,
                                                 tmp_path: Path) -> None:
    search = service(mock, tmp_path)
    found = search.search_reranked("which dataset?", mode="bm25", k=3)
    assert mock.request_count == 0 and not found.model
    assert [h.chunk_id for h in found.hits] == ["p:0", "p:1", "p:2"]


@pytest.mark.parametrize("fault", [Fault.SERVER_ERROR, Fault.INVALID_JSON, Fault.TIMEOUT,
                                   Fault.BROKEN_BODY])
def test_a_failing_reranker_keeps_the_fusion_order_with_a_warning(
        fault: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with MockOpenAIServer(faults={fault: 1.0}, hang_s=5) as mock:
        search = service(mock, tmp_path, rerank_timeout_s=0.5)
        found = search.search_reranked("which dataset?", k=4)
        calls = mock.request_count
    assert [h.chunk_id for h in found.hits] == ["p:0", "p:1", "p:2", "p:3"]
    assert found.model == "mock-model" and not found.reranked
    assert "kept the fusion order" in found.warning and "kept the fusion order" in caplog.text
    assert 1 <= calls <= 3  # one call: the first try and at most two re-asks for valid output


def test_a_reply_that_scores_no_shown_passage_keeps_the_fusion_order(tmp_path: Path) -> None:
    with MockOpenAIServer(responder=lambda r: {"scores": [{"number": 99, "score": 9}]}) as mock:
        found = service(mock, tmp_path).search_reranked("which dataset?", k=2)
    assert [h.chunk_id for h in found.hits] == ["p:0", "p:1"]
    assert "scored none of the passages" in found.warning


def test_offline_the_fusion_order_stands_and_no_call_is_made() -> None:
    assert build_llm_reranker(Settings(), lambda: pytest.fail("no gateway offline")) is None
    gateway = fake_gateway({"reranker": [{"scores": [{"number": 2, "score": 9}]}]}, local=True)
    found = LLMReranker(gateway).reranking("q", fusion_hits(5), 3)
    assert [h.chunk_id for h in found.hits] == ["p:0", "p:1", "p:2"]
    assert not found.model and not found.warning and gateway.calls == []


async def test_cited_qa_reranks_on_the_jobs_gateway_and_reports_the_tokens() -> None:
    library = Library()
    library.add(make_paper("olid", OFFENSIVE, year=2019))
    gateway = fake_gateway({"reranker": [{"scores": [{"number": 1, "score": 9}]}],
                            "distiller": [{"quotes": []}], "answerer": [{"sentences": []}],
                            "checker": [judge()]})
    qa = QAParts(gateway=gateway, retriever=KeywordRetriever(library), papers=library,
                 grounder=GroundingEngine(), reranker=LLMReranker(gateway, top=3))
    report = await answer_question(qa, "How many tweets does OLID contain?", job_id="job-r",
                                   checkpointer=memory_checkpointer())
    (call,) = gateway.calls_for(role="reranker")
    assert len(_NUMBER.findall(_FENCE.search(call.text).group(1))) <= 3
    assert report.usage["by_node"]["rerank"]["calls"] == 1
    assert report.models["reranker"] == "scripted"
    assert any(s.node == "rerank" and "by reranker scripted" in s.summary
               for s in report.history)


async def test_concurrent_rerankings_each_report_only_their_own_tokens(tmp_path: Path) -> None:
    with MockOpenAIServer(responder=prefer_later, latency_s=0.3) as server:
        reranker = service(server, tmp_path).reranker
        assert reranker is not None
        first, second = await asyncio.gather(
            reranker.areranking("which dataset is used?", fusion_hits(), 5),
            reranker.areranking("how large is the model that was trained?", fusion_hits(), 5))
        assert server.peak_in_flight == 2  # the two calls overlapped
    records = reranker.gateway.usage.records
    assert len(records) == 2 and records[0].tokens_in != records[1].tokens_in
    assert sorted([first.tokens_in, second.tokens_in]) == sorted(r.tokens_in for r in records)
