"""The Anthropic endpoint (optional extra) against the mock server's Messages API."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from papermind.config import EndpointSettings, LLMSettings
from papermind.errors import ConfigError
from papermind.llm import build_gateway
from papermind.llm.testing import Fault, MockOpenAIServer

pytest.importorskip("langchain_anthropic", reason="the anthropic extra is not installed")


class Label(BaseModel):
    """A label for a paper."""

    label: str
    confident: bool


def _settings(base_url: str, **extra: object) -> LLMSettings:
    return LLMSettings(endpoints={"default": EndpointSettings(
        provider="anthropic", base_url=base_url, model="claude-test", max_retries=4,
        backoff_base_s=0.001, backoff_max_s=0.01, timeout_s=20, **extra)})  # type: ignore[arg-type]


async def test_structured_and_text_calls_with_retries() -> None:
    with MockOpenAIServer(faults={Fault.RATE_LIMIT: 0.3, Fault.INVALID_JSON: 0.2}, seed=3) as mock:
        root = mock.base_url.removesuffix("/v1")
        gateway = build_gateway(_settings(root))
        labels = [await gateway.structured("reader", [("system", "s"), ("user", f"p{i}")], Label)
                  for i in range(10)]
        text = await gateway.text("reader", [("user", "hello")])
    assert all(isinstance(label, Label) for label in labels)
    assert text  # the mock's text reply
    first = mock.requests[0]
    assert first["tools"][0]["name"] == "Label" and first["system"]
    assert first["tool_choice"] == {"type": "tool", "name": "Label"}
    assert gateway.usage.total().tokens_in > 0
    assert "429" in mock.fault_log


def test_anthropic_needs_function_calling() -> None:
    gateway = build_gateway(_settings("http://127.0.0.1:9", structured_method="json_schema"))
    with pytest.raises(ConfigError, match="function_calling"):
        gateway._shared.backend("default", gateway.settings.endpoints["default"])
