"""A guard that blocks real model endpoints while tests run.

When ``PAPERMIND_BLOCK_REAL_LLM=1`` (tests/conftest.py sets it for the whole suite), building
a backend for any endpoint that is not on this machine's loopback raises ConfigError, so a
mis-configured test fails loudly instead of spending money or hanging on the network.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from papermind.errors import ConfigError
from papermind.hosts import is_loopback

ENV_VAR = "PAPERMIND_BLOCK_REAL_LLM"


def real_calls_blocked() -> bool:
    return os.environ.get(ENV_VAR, "") not in ("", "0", "false")


def check_endpoint_allowed(name: str, base_url: str | None) -> None:
    """Raise ConfigError for an off-loopback endpoint while the guard is on."""
    if real_calls_blocked() and not is_loopback(base_url):
        raise ConfigError(
            f"real LLM endpoint {name!r} ({base_url or 'provider default'}) is blocked in tests",
            hint="use papermind.llm.testing.fake_gateway or MockOpenAIServer")


@contextmanager
def block_real_endpoints() -> Iterator[None]:
    """Turn the guard on for a block of code (restores the previous value)."""
    previous = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = previous
