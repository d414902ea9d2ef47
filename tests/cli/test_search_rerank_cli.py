"""`papermind search` with an LLM endpoint configured: reranked by default, one line on
stderr says what it cost; stdout's JSON keeps its shape."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.support.cli import CliRunner

PAPER = ("OLID tweets\n\nIntroduction\n\nThe dataset contains 14,100 tweets.\n\n"
         "Results\n\nThe CNN reaches a macro F1 of 0.80 on the dataset.\n")


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    scores = {"scores": [{"number": 2, "score": 9}, {"number": 1, "score": 3}]}
    with MockOpenAIServer(responder=lambda request: scores) as server:
        yield server


def test_cli_search_says_what_reranking_cost_on_stderr(
        cli: CliRunner, tmp_path: Path, mock: MockOpenAIServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "olid.txt").write_text(PAPER)
    assert cli("add", tmp_path / "olid.txt").code == 0
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", mock.base_url)
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "mock-model")
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MAX_RETRIES", "0")
    result = cli("search", "dataset tweets F1", "--json")
    assert result.code == 0, result.err
    assert isinstance(result.json(), list) and mock.request_count == 1
    assert "reranked by mock-model:" in result.err and "tokens in" in result.err
