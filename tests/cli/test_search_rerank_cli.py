"""`papermind search` with an LLM endpoint configured: reranked by default, one line on
stderr says what it cost; stdout's JSON keeps its shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.api import test_search_rerank as api_case
from tests.support.cli import CliRunner

PAPER = api_case.PAPER
mock = api_case.mock  # the same reranker endpoint as the API's test


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
