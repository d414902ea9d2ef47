"""The gateway against the mock OpenAI server: limits, cache, Retry-After, errors, guard."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from pydantic import BaseModel

from papermind.config import EndpointSettings, LLMSettings
from papermind.db import Database
from papermind.errors import ConfigError, ProviderError
from papermind.llm import build_gateway
from papermind.llm.testing import Fault, MockOpenAIServer
from tests.support.llm_settings import mock_settings


class Summary(BaseModel):
    """A short summary."""

    text: str
    confidence: float


async def test_concurrency_limit_holds_under_50_simultaneous_calls() -> None:
    with MockOpenAIServer(latency_s=0.05) as mock:
        gateway = build_gateway(mock_settings(mock.base_url, max_concurrency=4))
        results = await asyncio.gather(*[
            gateway.structured("reader", [("user", f"p{i}")], Summary) for i in range(50)])
    assert len(results) == 50 and mock.request_count == 50
    assert mock.peak_in_flight == 4


async def test_requests_per_minute_spaces_requests() -> None:
    with MockOpenAIServer() as mock:
        gateway = build_gateway(mock_settings(mock.base_url, requests_per_minute=600))
        started = time.monotonic()
        await asyncio.gather(*[gateway.text("reader", [("user", f"{i}")]) for i in range(5)])
    assert time.monotonic() - started >= 0.4  # 5 requests at one per 0.1 s


async def test_second_identical_run_makes_zero_requests(tmp_path: Path) -> None:
    db = Database(tmp_path / "library.sqlite3")
    prompts = [[("system", "summarise"), ("user", f"paper {i}")] for i in range(10)]
    with MockOpenAIServer() as mock:
        settings = mock_settings(mock.base_url)
        first = build_gateway(settings, db=db).bind(job_id="run1")
        one = [await first.structured("reader", p, Summary, node="summarise") for p in prompts]
        await first.text("reader", [("user", "free text")])
        assert mock.request_count == 11
        second = build_gateway(settings, db=Database(tmp_path / "library.sqlite3"))
        two = [await second.structured("reader", p, Summary, node="summarise") for p in prompts]
        assert await second.text("reader", [("user", "free text")]) == "mock reply"
        assert mock.request_count == 11  # nothing reached the mock
        assert two == one
        assert second.usage.total().cached_calls == 11 and second.usage.total().tokens == 0
        other_role = build_gateway(settings, db=db)
        await other_role.structured("devil", prompts[0], Summary)  # other temperature: a miss
        assert mock.request_count == 12


async def test_retry_after_is_honoured() -> None:
    with MockOpenAIServer(faults={Fault.RATE_LIMIT: 1.0}, retry_after_s=0.15) as mock:
        gateway = build_gateway(mock_settings(mock.base_url, max_retries=2, backoff_max_s=1.0))
        started = time.monotonic()
        with pytest.raises(ProviderError, match=r"failed after 3 attempts \(HTTP 429\)"):
            await gateway.text("reader", [("user", "x")])
    assert time.monotonic() - started >= 0.3
    assert mock.request_count == 3
    assert gateway.usage.records[-1].ok is False and gateway.usage.records[-1].attempts == 3


async def test_rejected_request_is_not_retried() -> None:
    with MockOpenAIServer() as mock:
        gateway = build_gateway(mock_settings(mock.base_url + "/wrong"))
        with pytest.raises(ProviderError, match="rejected") as info:
            await gateway.text("reader", [("user", "x")])
    assert "base_url" in str(info.value)
    assert mock.request_count == 0


async def test_fallback_endpoint_takes_over() -> None:
    with MockOpenAIServer(faults={Fault.SERVER_ERROR: 1.0}) as bad, \
            MockOpenAIServer(model="backup") as good:
        primary = EndpointSettings(base_url=bad.base_url, model="m1", max_retries=1,
                                   backoff_base_s=0.001, fallback="backup")
        backup = EndpointSettings(base_url=good.base_url, model="m2")
        gateway = build_gateway(LLMSettings(endpoints={"default": primary, "backup": backup}))
        result = await gateway.structured("reader", [("user", "x")], Summary)
    assert isinstance(result, Summary)
    record = gateway.usage.records[-1]
    assert (record.endpoint, record.model, record.attempts) == ("backup", "m2", 3)
    assert good.requests[0]["model"] == "m2"


@pytest.mark.parametrize("method", ["json_schema", "json_mode", "function_calling"])
async def test_structured_methods_send_the_right_request(method: str) -> None:
    with MockOpenAIServer() as mock:
        gateway = build_gateway(mock_settings(mock.base_url, structured_method=method))
        assert isinstance(await gateway.structured("reader", [("user", "x")], Summary), Summary)
    request = mock.requests[0]
    if method == "function_calling":
        assert request["tools"][0]["function"]["name"] == "Summary"
    elif method == "json_schema":
        assert request["response_format"]["json_schema"]["name"] == "Summary"
    else:
        assert request["response_format"] == {"type": "json_object"}
        assert "json" in request["messages"][0]["content"].lower()


async def test_real_endpoints_are_blocked_in_tests() -> None:
    settings = LLMSettings(endpoints={"default": EndpointSettings(
        base_url="https://api.example.com/v1", model="gpt")})
    with pytest.raises(ConfigError, match="blocked in tests"):
        await build_gateway(settings).text("reader", [("user", "x")])


def test_one_gateway_serves_several_event_loops() -> None:
    """A CLI may call asyncio.run more than once; pools must not outlive their loop."""
    with MockOpenAIServer() as mock:
        gateway = build_gateway(mock_settings(mock.base_url, max_concurrency=2))
        for _ in range(3):
            assert asyncio.run(gateway.text("reader", [("user", "x")])) == "mock reply"
    assert mock.request_count == 3
