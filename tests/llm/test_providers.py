"""Provider kinds are one table: the gateway builds backends from its rows, config's names
match them, and a kind that is not there is a clear configuration error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from papermind.config import EndpointSettings, LLMSettings, ProviderName, load_settings
from papermind.errors import ConfigError
from papermind.llm.endpoints import ChatReply, ChatRequest
from papermind.llm.gateway import build_gateway
from papermind.llm.providers import PROVIDERS, SDK_MODULES, ProviderKind, build_backend
from papermind.llm.resilience import EndpointFailed, RetryPolicy, with_retries


class EchoBackend:
    """A backend of a kind registered by the test: replies with the last message."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def complete(self, request: ChatRequest) -> ChatReply:
        return ChatReply(f"{self.name}: {request.messages[-1].content}", None, None, 3, 2)


def test_the_config_names_are_the_table_rows() -> None:
    assert set(get_args(ProviderName)) == set(PROVIDERS)
    assert {"openai", "anthropic"} <= SDK_MODULES


async def test_the_gateway_builds_each_endpoint_from_its_kind_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    row = ProviderKind("fake", "echo", lambda name, endpoint, settings, home: EchoBackend(name))
    monkeypatch.setitem(PROVIDERS, "fake", row)
    settings = LLMSettings(endpoints={"default": EndpointSettings(provider="fake", model="m")})
    gateway = build_gateway(settings)
    assert await gateway.text("reader", [("user", "hello")]) == "default: hello"


def test_a_kind_without_a_builder_needs_a_backend_in_code() -> None:
    with pytest.raises(ConfigError, match="supplied in code"):
        build_backend("x", EndpointSettings(provider="fake"), LLMSettings())


def test_an_unknown_kind_is_a_clear_config_error(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__X__PROVIDER", "bogus")
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path)
    message = str(caught.value)
    assert "llm.endpoints.x.provider" in message
    assert "PAPERMIND_LLM__ENDPOINTS__X__PROVIDER" in message
    assert all(repr(name) in message for name in PROVIDERS)
    endpoint = EndpointSettings.model_construct(provider="bogus")  # not validated
    with pytest.raises(ConfigError, match="unknown provider 'bogus'"):
        build_backend("x", endpoint, LLMSettings())


def test_the_cli_says_so_in_one_line_with_the_config_exit_code(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "papermind", "models"], capture_output=True,
                         text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path),
                              "PAPERMIND_HOME": str(tmp_path),
                              "PAPERMIND_LLM__ENDPOINTS__X__PROVIDER": "bogus"})
    assert run.returncode == 4, run.stderr
    assert run.stderr.startswith("error: invalid setting llm.endpoints.x.provider")
    assert "Traceback" not in run.stderr


async def test_sdk_errors_of_a_kind_are_described_without_their_text() -> None:
    secret = type("Leak", (Exception,), {"__module__": "anthropic._exceptions"})

    async def fail() -> None:
        raise secret("key sk-123 in the text")

    with pytest.raises(EndpointFailed) as caught:
        await with_retries(fail, RetryPolicy(max_retries=0), where="endpoint 'x'")
    assert "sk-123" not in str(caught.value) and "Leak" in str(caught.value)


async def test_models_checks_an_endpoint_with_its_kind_row(monkeypatch: pytest.MonkeyPatch) -> None:
    from papermind.llm.health import EndpointStatus, check_endpoint

    endpoint = EndpointSettings(provider="fake", model="m")
    unchecked = await check_endpoint("x", endpoint)
    assert unchecked.ok and unchecked.detail == "not checked (provider fake)"

    async def ping(name: str, settings: EndpointSettings, timeout_s: float) -> EndpointStatus:
        return EndpointStatus(name, settings.provider, settings.model, False, f"{timeout_s}s")

    monkeypatch.setitem(PROVIDERS, "fake", ProviderKind("fake", "pinged", None, check=ping))
    assert (await check_endpoint("x", endpoint, 3.0)).detail == "3.0s"


def test_behaviour_comes_from_capabilities_on_the_rows() -> None:
    bundled = [name for name, kind in PROVIDERS.items() if kind.bundled]
    assert bundled == ["local"]
    assert not PROVIDERS["local"].judges and PROVIDERS["openai"].judges
    assert {name for name, kind in PROVIDERS.items() if kind.free} == {"local", "fake"}


def test_no_code_tests_a_provider_by_its_name() -> None:
    src = Path(__file__).resolve().parents[2] / "src" / "papermind"
    tests = [f"{path.relative_to(src)}:{number}"
             for path in src.rglob("*.py")
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "provider ==" in line or "provider !=" in line or "provider in (" in line
             or "provider not in (" in line]
    assert tests == [], "use a capability flag on the provider row instead"
