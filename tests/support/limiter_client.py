"""A separate process making model calls through the shared LLM limiter (multi-process tests).

    python -m tests.support.limiter_client PG_URL MOCK_URL CALLS MAX_CONCURRENCY [RPM] [shared|local]

Fires CALLS text calls at once through a gateway whose one endpoint allows MAX_CONCURRENCY
in flight (and RPM requests a minute); 'local' uses the per-process limiter instead (the
control: several processes then exceed the limit together).
"""

from __future__ import annotations

import asyncio
import sys

from papermind.config import EndpointSettings, LLMSettings
from papermind.llm import build_gateway
from papermind.llm.shared_limiter import shared_limiters


async def main(pg_url: str, mock_url: str, calls: int, limit: int, rpm: int | None,
               mode: str) -> None:
    endpoint = EndpointSettings(base_url=mock_url, model="mock-model", api_key="k",
                                timeout_s=30, max_retries=0, max_concurrency=limit,
                                requests_per_minute=rpm)
    factory = shared_limiters(pg_url) if mode == "shared" else None
    gateway = build_gateway(LLMSettings(endpoints={"default": endpoint}, cache=False),
                            limiter_factory=factory)
    await gateway.text("reader", [("user", "warm-up")])  # connections, before the barrier
    print("ready", flush=True)
    sys.stdin.readline()  # the test releases every process at once
    await asyncio.gather(*[gateway.text("reader", [("user", f"call {i}")])
                           for i in range(calls)])
    print("done", flush=True)


if __name__ == "__main__":
    url, mock, n, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rpm = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] != "-" else None
    asyncio.run(main(url, mock, n, limit, rpm, sys.argv[6] if len(sys.argv) > 6 else "shared"))
