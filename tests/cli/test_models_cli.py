"""`papermind models`: role table and endpoint checks, against the mock server."""

from __future__ import annotations

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.support.cli import CliRunner


def test_roles_and_a_reachable_endpoint(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    with MockOpenAIServer(model="qwen-7b") as mock:
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", mock.base_url)
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "qwen-7b")
        monkeypatch.setenv("PAPERMIND_LLM__ROLES__DEVIL__TEMPERATURE", "0.95")
        result = cli("models", "--json")
        table = cli("models")
    assert result.code == 0, result.err
    payload = result.json()
    roles = {r["role"]: r for r in payload["roles"]}
    assert roles["devil"]["temperature"] == 0.95 and roles["devil"]["model"] == "qwen-7b"
    assert roles["experiment_reviewer"]["temperature"] == 0.2
    assert roles["reproducibility_reviewer"]["temperature"] == 0.2  # the panel table
    assert payload["demo_quality"] is False
    [status] = payload["endpoints"]
    assert status["ok"] and "model served" in status["detail"]
    assert table.code == 0 and "devil" in table.out and "0.95" in table.out


def test_wrong_model_and_unreachable_endpoints_fail(cli: CliRunner,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with MockOpenAIServer(model="other") as mock:
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", mock.base_url)
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "qwen-7b")
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DOWN__BASE_URL", "http://127.0.0.1:9/v1")
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DOWN__MODEL", "x")
        result = cli("models", "--json")
    assert result.code == 5
    status = {s["endpoint"]: s for s in result.json()["endpoints"]}
    assert "not among" in status["default"]["detail"]
    assert status["down"]["detail"].startswith("unreachable")
    assert "endpoint check failed: default, down" in result.err


def test_offline_default_says_how_to_configure(cli: CliRunner) -> None:
    result = cli("models", "--no-check")
    assert result.code == 0
    assert "local" in result.out
    assert "demo-quality" in result.err and "PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL" in result.err


def test_remote_endpoint_is_not_probed_in_tests(cli: CliRunner,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", "https://api.example.com/v1")
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "gpt")
    result = cli("models", "--json")
    assert result.code == 5
    assert "blocked in tests" in result.json()["endpoints"][0]["detail"]
