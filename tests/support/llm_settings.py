"""Settings for provider tests against the local mock server."""

from __future__ import annotations

from typing import Any

from papermind.config import EndpointSettings, LLMSettings


def mock_settings(base_url: str, **endpoint: Any) -> LLMSettings:
    """One 'default' endpoint at ``base_url`` with tiny backoffs and timeouts for tests."""
    values: dict[str, Any] = {"base_url": base_url, "model": "mock-model", "timeout_s": 2.0,
                              "max_retries": 4, "backoff_base_s": 0.002, "backoff_max_s": 0.02,
                              "max_concurrency": 32}
    values.update(endpoint)
    return LLMSettings(endpoints={"default": EndpointSettings(**values)})
