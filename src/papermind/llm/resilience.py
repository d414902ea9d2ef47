"""Retries with jittered backoff, Retry-After, timeouts, concurrency and rate limits."""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import openai

from papermind.config import EndpointSettings
from papermind.errors import ProviderError
from papermind.llm.providers import SDK_MODULES

log = logging.getLogger("papermind.llm")
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How one endpoint is retried."""

    max_retries: int = 4
    timeout_s: float | None = 120.0  # None: no wall-clock limit (an in-process model)
    backoff_base_s: float = 0.5
    backoff_max_s: float = 30.0


class EndpointFailed(ProviderError):
    """An endpoint kept failing (or refused the request); carries the number of tries."""

    def __init__(self, message: str, *, attempts: int, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.attempts = attempts


_TRANSIENT_NAMES = {"APIConnectionError", "APITimeoutError", "APIResponseValidationError",
                    "JSONDecodeError", "RemoteProtocolError", "ReadError", "ConnectError",
                    "TimeoutException", "TransportError"}


def status_of(err: BaseException) -> int | None:
    """The HTTP status of an SDK error (OpenAI, Anthropic...), if it has one."""
    status = getattr(err, "status_code", None)
    return status if isinstance(status, int) else None


def is_transient(err: BaseException) -> bool:
    """429, 5xx, timeouts, dropped connections and garbled responses are worth retrying."""
    status = status_of(err)
    if status is not None:
        return status in (408, 409, 425, 429) or status >= 500
    if isinstance(err, TimeoutError | ConnectionError | openai.APIConnectionError):
        return True
    return any(kind.__name__ in _TRANSIENT_NAMES for kind in type(err).__mro__)


def retry_after_s(err: BaseException) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms or Retry-After), if any."""
    response = getattr(err, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def backoff_delay(retry: int, policy: RetryPolicy, server_wait: float | None) -> float:
    """Full-jitter exponential backoff, never shorter than what the server asked for."""
    ceiling = min(policy.backoff_max_s, policy.backoff_base_s * (2 ** retry))
    delay = random.uniform(0, ceiling)
    if server_wait is not None:
        delay = max(delay, min(server_wait, policy.backoff_max_s))
    return delay


def describe(err: BaseException) -> str:
    """A short, key-free description of a provider failure."""
    status = status_of(err)
    if status is not None:
        return f"HTTP {status}"
    if isinstance(err, TimeoutError) or "Timeout" in type(err).__name__:
        return "timeout"
    return type(err).__name__


async def with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy, *,
                       where: str) -> tuple[T, int]:
    """Run ``call``, retrying transient failures; returns (result, tries)."""
    for attempt in range(policy.max_retries + 1):
        try:
            return await call(), attempt + 1
        except Exception as err:
            if isinstance(err, ProviderError):
                raise
            if not is_transient(err):
                raise EndpointFailed(f"{where}: request rejected ({_detail(err)})",
                                     attempts=attempt + 1, hint=_hint(err)) from err
            if attempt == policy.max_retries:
                raise EndpointFailed(
                    f"{where}: failed after {attempt + 1} attempts ({describe(err)})",
                    attempts=attempt + 1, hint="the endpoint is overloaded or unreachable; try again later") from err
            delay = backoff_delay(attempt, policy, retry_after_s(err))
            log.warning("retrying %s after %s (retry %d/%d, backoff %.3fs)", where,
                        describe(err), attempt + 1, policy.max_retries, delay)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


def _detail(err: BaseException) -> str:
    if status_of(err) is not None or type(err).__module__.split(".")[0] in SDK_MODULES:
        return describe(err)
    return f"{type(err).__name__}: {str(err)[:200]}"


def _hint(err: BaseException) -> str | None:
    status = status_of(err)
    if status in (401, 403):
        return "check the api_key of this endpoint"
    if status == 404:
        return "check the base_url and model name of this endpoint"
    if status == 400:
        return ("the endpoint refused the request: a prompt over its context, or a "
                "structured_method it does not support (try function_calling)?")
    return None


class Limiter(Protocol):
    """Bounds one endpoint's calls: ``EndpointLimiter`` here, ``SharedLimiter`` across hosts."""

    async def run(self, call: Callable[[], Awaitable[T]], timeout_s: float | None) -> T: ...


LimiterFactory = Callable[[str, EndpointSettings], Limiter]
"""Builds the limiter of endpoint (name, settings)."""


class EndpointLimiter:
    """At most ``max_concurrency`` calls in flight and, optionally, N requests per minute.

    Semaphores are kept per event loop, so one gateway works across ``asyncio.run`` calls.
    """

    def __init__(self, max_concurrency: int, requests_per_minute: int | None = None) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self.interval = 60.0 / requests_per_minute if requests_per_minute else 0.0
        self._next_slot = 0.0
        self._per_loop: weakref.WeakKeyDictionary[Any, tuple[asyncio.Semaphore, asyncio.Lock]] = (
            weakref.WeakKeyDictionary())

    def _primitives(self) -> tuple[asyncio.Semaphore, asyncio.Lock]:
        loop = asyncio.get_running_loop()
        if loop not in self._per_loop:
            self._per_loop[loop] = (asyncio.Semaphore(self.max_concurrency), asyncio.Lock())
        return self._per_loop[loop]

    async def run(self, call: Callable[[], Awaitable[T]], timeout_s: float | None) -> T:
        """Wait for a slot, then run ``call`` with a hard timeout (the wait is not counted);
        ``timeout_s`` None runs it unbounded in time (bounded by its max tokens instead)."""
        semaphore, pace_lock = self._primitives()
        async with semaphore:
            if self.interval:
                async with pace_lock:
                    wait = self._next_slot - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    self._next_slot = max(time.monotonic(), self._next_slot) + self.interval
            if timeout_s is None:
                return await call()
            return await asyncio.wait_for(call(), timeout_s)
