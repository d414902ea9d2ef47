"""A rate limiter per source: a least interval, lengthened by what the source's headers say.

Honours ``Retry-After`` (seconds or an HTTP date) on 429 / 503, Crossref-style
``x-rate-limit-limit`` / ``x-rate-limit-interval`` and the common ``x-ratelimit-remaining`` /
``x-ratelimit-reset`` pair; otherwise retries back off exponentially. Every wait a header
asks for is capped at ``max_wait_s`` (a source cannot park a lookup for an hour), and a header
that is not a finite number is ignored.
"""

from __future__ import annotations

import contextlib
import email.utils
import math
import re
import time
from collections.abc import Callable, Mapping

_INTERVAL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$")


class RateLimiter:
    """Spaces one source's requests; ``wait()`` before each, ``observe(headers)`` after."""

    def __init__(self, min_interval_s: float = 0.0, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 max_wait_s: float = 60.0) -> None:
        self.min_interval_s = min_interval_s
        self.max_wait_s = max_wait_s
        self.header_interval_s = 0.0
        self._clock, self._sleep = clock, sleep
        self._next_at = 0.0

    @property
    def interval_s(self) -> float:
        return max(self.min_interval_s, self.header_interval_s)

    def delay(self) -> float:
        """Seconds until the next request may go (0 when it may go now)."""
        return max(self._next_at - self._clock(), 0.0)

    def wait(self) -> float:
        """Sleep until the next request may go; the seconds slept."""
        delay = self._next_at - self._clock()
        if delay > 0:
            self._sleep(delay)
        self._next_at = self._clock() + self.interval_s
        return max(delay, 0.0)

    def hold(self, seconds: float) -> None:
        """No request before ``seconds`` from now (a Retry-After or an exhausted window),
        at most ``max_wait_s``."""
        seconds = min(_finite(seconds) or 0.0, self.max_wait_s)
        self._next_at = max(self._next_at, self._clock() + seconds)

    def observe(self, headers: Mapping[str, str]) -> None:
        """Learn the pace the source asks for from a response's headers."""
        limit, window = headers.get("x-rate-limit-limit"), headers.get("x-rate-limit-interval")
        if limit and window and (seconds := _seconds(window)) is not None:
            with contextlib.suppress(ValueError):
                pace = _finite(seconds / max(float(limit), 1.0))
                self.header_interval_s = min(pace or 0.0, self.max_wait_s)
        remaining = headers.get("x-ratelimit-remaining")
        reset = headers.get("x-ratelimit-reset")
        if remaining is not None and reset and remaining.strip() in {"0", "0.0"}:
            wait = _reset_seconds(reset, time.time())
            if wait is not None:
                self.hold(wait)


def retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks for (delta seconds or an HTTP date)."""
    value = headers.get("retry-after")
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return None if math.isnan(seconds) else max(seconds, 0.0)
    try:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
    except (TypeError, ValueError):
        return None
    if parsed is None:
        return None
    return max(parsed.timestamp() - (time.time() if now is None else now), 0.0)


def backoff(attempt: int, base_s: float, cap_s: float = 30.0) -> float:
    """Exponential backoff: base, 2 x base, 4 x base... (attempt 0 first), capped."""
    return float(min(base_s * (2 ** attempt), cap_s))


def _seconds(text: str) -> float | None:
    match = _INTERVAL.match(text)
    if not match:
        return None
    value = float(match.group(1))
    return {"ms": value / 1000, "m": value * 60}.get(match.group(2) or "s", value)


def _reset_seconds(reset: str, now: float) -> float | None:
    """``x-ratelimit-reset`` is seconds from now, or an epoch time when it is that large."""
    try:
        value = float(reset)
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    return max(value - now, 0.0) if value > 1e9 else value


def _finite(value: float) -> float | None:
    """``value`` when it is a finite number (a header may say "inf" or "nan")."""
    return value if math.isfinite(value) else None
