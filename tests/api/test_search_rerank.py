"""API search with an LLM endpoint configured: reranked by default, its cost reported in
headers, cached the second time; the hits keep their JSON shape."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import EndpointSettings, load_settings
from papermind.llm.testing import MockOpenAIServer
from papermind.services.container import Container
from tests.api.server import serve

PAPER = ("OLID tweets\n\nIntroduction\n\nThe dataset contains 14,100 tweets.\n\n"
         "Results\n\nThe CNN reaches a macro F1 of 0.80 on the dataset.\n")
"""Two chunks; the mock reranker prefers the second."""


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    """A reranker endpoint that scores passage [2] over [1]."""
    scores = {"scores": [{"number": 2, "score": 9}, {"number": 1, "score": 3}]}
    with MockOpenAIServer(responder=lambda request: scores) as server:
        yield server


def test_api_search_reports_the_rerank_cost_in_headers(home: Path, tmp_path: Path,
                                                       mock: MockOpenAIServer) -> None:
    settings = load_settings(home)
    endpoint = EndpointSettings(base_url=mock.base_url, model="mock-model", api_key="k",
                                max_retries=0, timeout_s=10)
    settings = settings.model_copy(update={
        "search": settings.search.model_copy(update={"embedder": "hashing"}),
        "llm": settings.llm.model_copy(update={"endpoints": {"default": endpoint}})})
    (tmp_path / "olid.txt").write_text(PAPER)
    with Container(settings) as box:
        box.library.add([tmp_path / "olid.txt"])
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=30) as client:
        first = client.get("/api/search", params={"q": "dataset tweets F1"})
        assert first.status_code == 200, first.text
        assert mock.request_count == 1
        assert first.headers["x-papermind-rerank-model"] == "mock-model"
        assert first.headers["x-papermind-rerank-reranked"] == "True"
        assert int(first.headers["x-papermind-rerank-tokens-in"]) > 0
        assert first.headers["x-papermind-rerank-warning"] == ""
        assert isinstance(first.json(), list) and {"paper_id", "anchor"} <= set(first.json()[0])
        again = client.get("/api/search", params={"q": "dataset tweets F1"})
        assert mock.request_count == 1 and again.json() == first.json()
        assert again.headers["x-papermind-rerank-cached"] == "True"
        plain = client.get("/api/search", params={"q": "dataset tweets F1", "mode": "bm25"})
        assert mock.request_count == 1 and "x-papermind-rerank-model" not in plain.headers

