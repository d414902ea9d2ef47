"""Backoff, Retry-After parsing, transient classification, rate and concurrency limits."""

from __future__ import annotations

import asyncio
import email.utils
import time
from types import SimpleNamespace

import httpx
import openai
import pytest

from papermind.errors import ProviderError
from papermind.llm.resilience import (
    EndpointFailed,
    EndpointLimiter,
    RetryPolicy,
    backoff_delay,
    is_transient,
    retry_after_s,
    with_retries,
)


def _status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx.Response(status, headers=headers or {}, request=request)
    return openai.APIStatusError("boom", response=response, body=None)  # type: ignore[arg-type]


def test_transient_classification() -> None:
    assert is_transient(_status_error(429)) and is_transient(_status_error(503))
    assert not is_transient(_status_error(400)) and not is_transient(_status_error(401))
    assert is_transient(TimeoutError()) and is_transient(ConnectionResetError())
    assert not is_transient(ValueError("bad"))


def test_retry_after_headers() -> None:
    assert retry_after_s(_status_error(429, {"retry-after-ms": "250"})) == 0.25
    assert retry_after_s(_status_error(429, {"retry-after": "3"})) == 3.0
    future = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 < (retry_after_s(_status_error(429, {"retry-after": future})) or 0) <= 30
    assert retry_after_s(_status_error(429)) is None
    assert retry_after_s(SimpleNamespace()) is None  # type: ignore[arg-type]


def test_backoff_is_jittered_capped_and_honours_the_server() -> None:
    policy = RetryPolicy(backoff_base_s=0.5, backoff_max_s=4.0)
    delays = [backoff_delay(5, policy, None) for _ in range(200)]
    assert max(delays) <= 4.0 and len(set(delays)) > 100
    assert backoff_delay(0, policy, 2.0) >= 2.0
    assert backoff_delay(0, policy, 60.0) == 4.0  # never past the cap


async def test_with_retries_counts_attempts() -> None:
    failures = [_status_error(500), _status_error(429)]

    async def flaky() -> str:
        if failures:
            raise failures.pop(0)
        return "ok"

    policy = RetryPolicy(max_retries=3, backoff_base_s=0.001, backoff_max_s=0.002)
    assert await with_retries(flaky, policy, where="x") == ("ok", 3)

    async def rejected() -> str:
        raise _status_error(401)

    with pytest.raises(EndpointFailed, match="rejected") as info:
        await with_retries(rejected, policy, where="x")
    assert info.value.attempts == 1 and "api_key" in str(info.value)

    async def passes_provider_errors() -> str:
        raise ProviderError("already clear")

    with pytest.raises(ProviderError, match="already clear"):
        await with_retries(passes_provider_errors, policy, where="x")


async def test_limiter_bounds_concurrency_and_times_out() -> None:
    limiter = EndpointLimiter(3)
    active = peak = 0

    async def work() -> None:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.01)
        active -= 1

    await asyncio.gather(*[limiter.run(work, 5.0) for _ in range(20)])
    assert peak == 3
    with pytest.raises(TimeoutError):
        await limiter.run(lambda: asyncio.sleep(5), 0.05)
