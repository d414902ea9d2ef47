"""Every outside call is bounded: a total deadline, capped rate-limit waits, answers read
with a size cap while streaming."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from papermind.errors import SourceDownError
from papermind.scholar.cache import MemoryCache
from papermind.scholar.http import HttpPolicy, SourceHttp
from papermind.scholar.limiter import RateLimiter, retry_after
from tests.scholar.hostile_server import HostileServer, Play

MB = 2**20


@pytest.fixture
def server() -> Iterator[HostileServer]:
    found = HostileServer({
        "/drip": Play(chunk=b"x", chunks=100, every_s=0.2),
        "/huge": Play(chunk=b"a" * 65536, chunks=64),  # 4 MiB, no Content-Length
        "/declared": Play(chunk=b"", declared=2**30),
        "/reset": Play(chunk=b"{}", headers=(("x-ratelimit-remaining", "0"),
                                             ("x-ratelimit-reset", "3600"))),
        "/ok": Play(chunk=b"{}")})
    yield found
    found.stop()


def _http(server: HostileServer, **policy: object) -> SourceHttp:
    base = {"timeout_s": 2.0, "max_retries": 1, "backoff_base_s": 0.01, "max_wait_s": 1.0,
            "allow_hosts": ("127.0.0.1",), **policy}
    return SourceHttp("openalex", "OpenAlex", server.base_url, MemoryCache(),
                      HttpPolicy(**base))  # type: ignore[arg-type]


def test_a_slow_drip_hits_the_total_deadline(server: HostileServer) -> None:
    started = time.monotonic()
    with pytest.raises(SourceDownError, match=r"no answer within 1 s"):
        _http(server, deadline_s=1.0).get("/drip")
    assert time.monotonic() - started < 2.5  # the drip alone would take 20 s


def test_a_huge_answer_is_cut_while_streaming(server: HostileServer) -> None:
    with pytest.raises(SourceDownError, match="more than 1048576 bytes"):
        _http(server, max_body_mb=1.0).get("/huge")
    assert _http(server).fetch_bytes(f"{server.base_url}/huge", max_bytes=MB) is None
    assert len(_http(server).fetch_bytes(f"{server.base_url}/huge", max_bytes=8 * MB)
               or b"") == 4 * MB


def test_a_declared_length_over_the_cap_is_refused_before_reading(server: HostileServer) -> None:
    with pytest.raises(SourceDownError, match="announced 1073741824 bytes"):
        _http(server).get("/declared")


def test_a_reset_header_of_an_hour_waits_at_most_max_wait(server: HostileServer) -> None:
    slept: list[float] = []
    http = _http(server)
    http.limiter._sleep = slept.append  # record instead of sleeping
    http.get("/reset")
    http.get("/ok")
    assert slept and max(slept) <= 1.0


def test_rate_limit_headers_are_capped() -> None:
    limiter = RateLimiter(0.0, max_wait_s=5.0)
    limiter.observe({"x-rate-limit-limit": "1", "x-rate-limit-interval": "86400s"})
    assert limiter.interval_s == 5.0
    limiter.observe({"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1e12"})
    assert limiter.delay() <= 5.0
    limiter.hold(float("inf"))
    assert limiter.delay() <= 5.0


@pytest.mark.parametrize(("value", "seconds"), [("nan", None), ("inf", float("inf")),
                                                ("-3", 0.0), ("garbage", None), ("7", 7.0)])
def test_retry_after_values(value: str, seconds: float | None) -> None:
    assert retry_after({"retry-after": value}) == seconds


def test_a_wait_past_the_deadline_gives_up_at_once(server: HostileServer) -> None:
    http = _http(server, deadline_s=0.5, max_wait_s=30.0)
    http.limiter.hold(20.0)
    started = time.monotonic()
    with pytest.raises(SourceDownError, match="deadline"):
        http.get("/ok")
    assert time.monotonic() - started < 0.5 and server.requests == []
