"""Each fault kind at 30% of 200 structured calls: success or a clear error, never a hang."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from pydantic import BaseModel

from papermind.errors import ProviderError, StructuredOutputError
from papermind.llm import build_gateway
from papermind.llm.resilience import EndpointFailed
from papermind.llm.testing import Fault, MockOpenAIServer
from tests.support.llm_settings import mock_settings


class Verdict(BaseModel):
    """A reviewer's verdict."""

    label: str
    score: int
    reasons: list[str]


TRANSPORT = {Fault.RATE_LIMIT, Fault.SERVER_ERROR, Fault.TIMEOUT, Fault.BROKEN_BODY}


@pytest.mark.parametrize("kind", Fault.ALL)
async def test_fault_at_30_percent_of_200_calls(kind: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="papermind.llm")
    # A hung request waits out the client timeout; other requests never get near theirs
    # (generous limits: the suite may share 2 cores with other work).
    timeout = 3.0 if kind == Fault.TIMEOUT else 30.0
    with MockOpenAIServer(faults={kind: 0.3}, hang_s=120.0, slow_s=0.05, seed=7) as mock:
        gateway = build_gateway(mock_settings(mock.base_url, timeout_s=timeout,
                                              max_concurrency=64))
        started = time.monotonic()
        results = await asyncio.wait_for(asyncio.gather(*[
            gateway.structured("reviewer", [("user", f"paper {i}")], Verdict, node="judge")
            for i in range(200)], return_exceptions=True), timeout=120)
        elapsed = time.monotonic() - started
    ok = [r for r in results if isinstance(r, Verdict)]
    errors = [r for r in results if not isinstance(r, Verdict)]
    assert all(isinstance(e, ProviderError) for e in errors), errors[:3]
    for err in errors:
        if isinstance(err, StructuredOutputError):
            assert err.attempts == 3 and err.usage["attempts"] >= 3
        else:
            assert isinstance(err, EndpointFailed) and err.attempts <= 5
    assert len(ok) >= 180, f"{kind}: only {len(ok)} of 200 succeeded"
    injected = mock.fault_log.count(kind)
    retried = injected - len(errors) if kind != Fault.SLOW else 0  # a final failure is not retried
    assert injected >= 30
    if kind == Fault.TIMEOUT:  # a slow-but-healthy request may also time out under heavy load
        assert mock.request_count >= 200 + retried
    else:
        assert mock.request_count == 200 + retried
    text = caplog.text
    if kind in TRANSPORT:
        assert "retrying endpoint 'default'" in text and "backoff" in text
    elif kind != Fault.SLOW:
        assert "invalid Verdict" in text
    assert elapsed < 90  # far below 200 hung calls (each hangs 120 s without a timeout)
    assert gateway.usage.total().calls == 200
