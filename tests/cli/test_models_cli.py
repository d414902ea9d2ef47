"""`papermind models`: role table and endpoint checks, against the mock server."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import LocalModelSettings
from papermind.llm.local_server import ensure_server
from papermind.llm.testing import MockOpenAIServer
from tests.support.cli import CliRunner
from tests.support.fake_local_server import use_fake_server


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
    assert "bundled model server: not running (starts on first use" in result.out
    assert "demo-quality" in result.err and "PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL" in result.err


def test_remote_endpoint_is_not_probed_in_tests(cli: CliRunner,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", "https://api.example.com/v1")
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "gpt")
    result = cli("models", "--json")
    assert result.code == 5
    assert "blocked in tests" in result.json()["endpoints"][0]["detail"]


def test_models_shows_the_running_bundled_model_server(cli: CliRunner, home: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    use_fake_server(monkeypatch)
    state = ensure_server(home, LocalModelSettings(scope="home"))
    result = cli("models", "--no-check", "--json")
    server = result.json()["local_server"]
    assert server["running"] and server["base_url"] == state.base_url
    assert server["pid"] == state.pid and "token" not in server  # the secret stays in its file
    assert state.token not in result.out
    table = cli("models", "--no-check")
    assert f"bundled model server: {state.base_url}" in table.out


def test_a_configured_endpoint_at_the_managed_server_works_like_any(
        cli: CliRunner, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_fake_server(monkeypatch)
    state = ensure_server(home, LocalModelSettings(scope="home"))
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", state.base_url)
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", state.model)
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY", state.token)
    result = cli("models", "--json")
    assert result.code == 0, result.err
    assert result.json()["demo_quality"] is False
    [status] = result.json()["endpoints"]
    assert status["ok"] and "model served" in status["detail"]
