"""Every request to a scholarly source: cache, rate limit, retries, one log event each.

``SourceHttp.get(path, params)`` answers the body of a 200, None for a 404 ("no such work"),
and raises ``SourceDownError`` when the source cannot answer (refused, timed out, 5xx or 429
after the retries, a malformed body, an answer past the size cap, no answer within the
lookup's total deadline, an address that is not public): the caller reports that source as
down and carries on with the others. Every request goes through ``transfer.bounded_get``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

import httpx

from papermind.errors import SourceDownError
from papermind.scholar.address_guard import AddressGuard, RefusedAddress, shown_url
from papermind.scholar.cache import CachedResponse, ResponseStore, request_key
from papermind.scholar.limiter import RateLimiter, backoff, retry_after
from papermind.scholar.transfer import (
    Answer,
    Deadline,
    DeadlinePassed,
    TooLarge,
    TooManyRedirects,
    bounded_get,
)

log = logging.getLogger("papermind.scholar")
_RETRY_STATUS = {429, 500, 502, 503, 504}
_NO_SUCH_WORK = {400, 404, 410}
"""Answers that mean "no such work" (arXiv answers 400 to an id it cannot read)."""


@dataclass
class HttpPolicy:
    """Timeouts, retries and bounds of one source."""

    timeout_s: float = 20.0
    max_retries: int = 3
    backoff_base_s: float = 1.0
    max_wait_s: float = 60.0
    min_interval_s: float = 0.0
    deadline_s: float = 120.0
    """total time of one lookup or download: retries and rate-limit waits included"""
    max_body_mb: float = 20.0
    """longest answer read from a source's API (a PDF has its own cap)"""
    allow_hosts: tuple[str, ...] = ()
    """hosts fetched even when they resolve to loopback or private addresses"""


@dataclass
class SourceHttp:
    """One source's HTTP side: base URL, fixed parameters and headers, limiter and cache."""

    name: str
    label: str
    base_url: str
    cache: ResponseStore
    policy: HttpPolicy = field(default_factory=HttpPolicy)
    params: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    sleep: Callable[[float], None] = time.sleep
    sent: int = 0
    cached: int = 0
    down: str | None = None
    limiter: RateLimiter = field(init=False)
    guard: AddressGuard = field(init=False)
    _client: httpx.Client | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        self.limiter = RateLimiter(self.policy.min_interval_s, sleep=self.sleep,
                                   max_wait_s=self.policy.max_wait_s)
        self.guard = AddressGuard.allowing(self.policy.allow_hosts)

    def get_json(self, path: str, params: Mapping[str, object] | None = None) -> Any | None:
        """The parsed JSON of a lookup, or None when the source has no such work."""
        body = self.get(path, params, parse=json.loads)
        return None if body is None else json.loads(body)

    def get(self, path: str, params: Mapping[str, object] | None = None, *,
            parse: Callable[[str], object] | None = None) -> str | None:
        """The body of a lookup (None on 404); ``parse`` checks a fresh body before caching."""
        if self.down is not None:
            raise SourceDownError(f"{self.label} is down ({self.down})")
        params = dict(params or {})
        key, shown = request_key(self.name, path, params)
        stored = self.cache.get(key)
        if stored is not None:
            self.cached += 1
            log.info("scholar lookup", extra={"source": self.name, "request": shown,
                                              "status": stored.status, "cached": True})
            return stored.body if stored.status == 200 else None
        answer = self._fetch(path, params, shown, parse)
        self.cache.put(key, self.name, shown, answer)
        return answer.body if answer.status == 200 else None

    def fetch_bytes(self, url: str, *, max_bytes: int) -> bytes | None:
        """A file (an open-access PDF) by absolute URL: not cached; None when that server
        has no such file, fails, sends too much or is not a public address (other URLs may
        still serve it). Read while streaming: never more than ``max_bytes`` in memory."""
        try:
            answer = self._send(url, {}, shown_url(url), follow=True, own_params=False,
                                max_bytes=max_bytes)
        except SourceDownError:
            self.down = None  # one file server failing says nothing of the next one
            return None
        return answer.body if answer.status == 200 else None

    def _fetch(self, path: str, params: dict[str, object], shown: str,
               parse: Callable[[str], object] | None) -> CachedResponse:
        answer = self._send(f"{self.base_url}/{path.lstrip('/')}", params, shown,
                            max_bytes=int(self.policy.max_body_mb * 2**20))
        if answer.status in _NO_SUCH_WORK:
            return CachedResponse(404, "")
        if answer.status != 200:
            self._give_up(f"HTTP {answer.status}")
        body = answer.text
        if parse is not None:
            try:
                parse(body)
            except ValueError:
                self._give_up("it answered a malformed body")
        return CachedResponse(200, body)

    def _send(self, url: str, params: dict[str, object], shown: str, *, max_bytes: int,
              follow: bool = False, own_params: bool = True) -> Answer:
        fixed = self.params if own_params else {}
        query = {**fixed, **{k: str(v) for k, v in params.items()}}
        deadline = Deadline(self.policy.deadline_s)
        problem = ""
        for attempt in range(self.policy.max_retries + 1):
            if self.limiter.delay() >= deadline.left():
                self._give_up(problem or "rate limited past the lookup's deadline")
            self.limiter.wait()
            started = time.perf_counter()
            try:
                answer = bounded_get(self.client, url, query, guard=self.guard,
                                     deadline=deadline, max_bytes=max_bytes,
                                     timeout_s=self.policy.timeout_s, follow=follow)
            except (RefusedAddress, TooLarge, DeadlinePassed, TooManyRedirects) as err:
                self._give_up(str(err.message if isinstance(err, RefusedAddress) else err))
            except httpx.TimeoutException:
                problem, wait = "timed out", backoff(attempt, self.policy.backoff_base_s)
            except httpx.TransportError as err:
                problem, wait = f"unreachable: {type(err).__name__}", \
                    backoff(attempt, self.policy.backoff_base_s)
            else:
                self.sent += 1
                self.limiter.observe(answer.headers)
                log.info("scholar lookup", extra={
                    "source": self.name, "request": shown, "status": answer.status,
                    "cached": False, "seconds": round(time.perf_counter() - started, 3)})
                if answer.status not in _RETRY_STATUS:
                    return answer
                problem = f"HTTP {answer.status}"
                asked = retry_after(answer.headers)
                if asked is not None and asked > self.policy.max_wait_s:
                    self._give_up(f"rate limited for {asked:.0f} s")
                wait = asked if asked is not None else backoff(attempt, self.policy.backoff_base_s)
            if attempt < self.policy.max_retries:
                self.limiter.hold(wait)
        self._give_up(problem)

    def _give_up(self, why: str) -> NoReturn:
        self.down = why
        log.warning("scholar source down", extra={"source": self.name, "reason": why})
        raise SourceDownError(f"{self.label} is down ({why})")

    @property
    def client(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(timeout=self.policy.timeout_s, headers=self.headers)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
