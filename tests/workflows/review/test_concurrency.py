"""The reviewers' calls overlap in time (real Gateway over the mock server with latency)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from papermind.config import EndpointSettings, LLMSettings
from papermind.domain import Paper
from papermind.llm import build_gateway
from papermind.llm.testing import MockOpenAIServer
from papermind.llm.testing.mock_server import requested_schema
from papermind.llm.testing.schema_example import example_for
from papermind.workflows.review import REVIEWERS
from tests.support.review_script import run_review

LATENCY = 0.4


def _reply(request: dict[str, Any]) -> dict[str, Any]:
    """Minimal valid answers; the meta-reviewer changes no score."""
    schema = requested_schema(request) or {}
    if schema.get("title") == "MetaDraft":
        return {"recommendation": "minor_revision", "confidence": 0.5}
    return example_for(schema)


def _settings(base_url: str) -> LLMSettings:
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="test",
                                timeout_s=10.0, max_retries=1, max_concurrency=8)
    return LLMSettings(endpoints={"default": endpoint}, cache=False)


async def test_reviewers_run_concurrently(paper: Paper) -> None:
    with MockOpenAIServer(latency_s=LATENCY, responder=_reply) as mock:
        gateway = build_gateway(_settings(mock.base_url))
        result = await run_review(gateway, paper)
        peak, requests = mock.peak_in_flight, mock.request_count
    assert result.status == "completed"
    n = len(REVIEWERS)
    assert requests == n + 3  # editor, the reviewers, devil, meta (the mock's minimal answers)
    assert peak == n  # only the reviewers are in flight together
    spans = {h["node"]: (h["started"], h["finished"]) for h in result.state["history"]}
    reviewers = [spans[r.role] for r in REVIEWERS]
    assert max(s for s, _ in reviewers) < min(f for _, f in reviewers)  # all overlap
    phase = (datetime.fromisoformat(max(f for _, f in reviewers))
             - datetime.fromisoformat(min(s for s, _ in reviewers))).total_seconds()
    calls = [r.latency_s for r in gateway.usage.records if r.role.endswith("_reviewer")]
    assert len(calls) == n and min(calls) >= LATENCY
    assert phase < 0.6 * sum(calls)  # one after another it would take at least sum(calls)
