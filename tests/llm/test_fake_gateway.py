"""The scripted fake model behind a real Gateway: what workflow tests rely on."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from papermind.errors import BudgetExceededError, ProviderError, StructuredOutputError
from papermind.llm.testing import ScriptExhaustedError, fake_gateway


class Finding(BaseModel):
    """One finding about a paper."""

    claim: str
    page: int = Field(ge=1)


async def test_structured_reply_is_validated_and_recorded() -> None:
    gw = fake_gateway({"reader": [{"claim": "c", "page": 2}]})
    result = await gw.structured("reader", [("system", "be brief"), ("user", "read")], Finding,
                                 node="extract_claims")
    assert result == Finding(claim="c", page=2)
    [call] = gw.calls
    assert (call.role, call.node, call.schema) == ("reader", "extract_claims", "Finding")
    assert call.messages[0].content == "be brief" and "read" in call.text


async def test_invalid_output_is_sent_back_then_corrected() -> None:
    gw = fake_gateway({"checker": ["not json at all", {"claim": "c", "page": 0},
                                   Finding(claim="ok", page=1)]})
    result = await gw.structured("checker", [("user", "check")], Finding)
    assert result.claim == "ok"
    assert len(gw.calls) == 3
    assert "not valid JSON" in gw.calls[1].text
    assert "page" in gw.calls[2].messages[-1].content  # the validation error went back
    record = gw.usage.records[-1]
    assert record.attempts == 3 and record.ok


async def test_never_valid_raises_with_attempts_and_usage() -> None:
    gw = fake_gateway({"reader": ["nope"] * 3}, schema_retries=2)
    with pytest.raises(StructuredOutputError) as info:
        await gw.structured("reader", [("user", "x")], Finding)
    assert info.value.attempts == 3
    assert info.value.usage["tokens_in"] > 0
    assert gw.usage.records[-1].ok is False


async def test_text_callable_and_wildcard_responses() -> None:
    gw = fake_gateway({"*": [lambda msgs: f"echo {msgs[-1].content}"]})
    assert await gw.text("devil", [("user", "hi")]) == "echo hi"


async def test_exhausted_script_fails_loudly() -> None:
    gw = fake_gateway({"reader": []})
    with pytest.raises(ProviderError, match="no scripted response left"):
        await gw.text("meta", [("user", "x")])
    assert isinstance(gw.calls[0], object)
    with pytest.raises(ScriptExhaustedError):
        gw.model._next("meta")


async def test_scripted_exception_is_a_provider_error() -> None:
    gw = fake_gateway({"reader": [ValueError("boom")]})
    with pytest.raises(ProviderError, match="boom"):
        await gw.text("reader", [("user", "x")])


async def test_usage_per_node_role_job_and_cost() -> None:
    gw = fake_gateway({"*": ["a", "b", "c"]}, prices={"scripted": (1_000_000.0, 0.0)})
    job = gw.bind(job_id="j1")
    await job.text("reader", [("user", "x" * 40)], node="n1")
    await job.text("devil", [("user", "y" * 40)], node="n2")
    await gw.text("reader", [("user", "z")], node="n1")
    assert set(gw.usage.by_job()) == {"j1", "-"}
    assert job.usage.total().calls == 2
    assert gw.usage.total().calls == 3
    assert job.usage.by_role()["devil"].tokens_in == 10
    assert job.usage.by_node()["n1"].cost_usd == pytest.approx(10.0)


async def test_token_budget_stops_the_job_with_usage_recorded() -> None:
    gw = fake_gateway({"*": ["x" * 400] * 5})
    job = gw.bind(job_id="j", token_budget=150)
    await job.text("reader", [("user", "q")])  # ~100 tokens: under budget
    with pytest.raises(BudgetExceededError) as info:
        await job.text("reader", [("user", "q")])
    assert info.value.usage["calls"] == 2
    with pytest.raises(BudgetExceededError):
        await job.text("reader", [("user", "q")])
    assert len(gw.calls) == 2  # the third call never reached the model
    assert job.usage.total().tokens > 150


async def test_model_for_and_demo_flag() -> None:
    gw = fake_gateway({})
    assert gw.model_for("devil") == "scripted"
    assert gw.is_demo_quality is False
    assert gw.resolve("devil").temperature == 0.8
    assert gw.resolve("experiment_reviewer").temperature == 0.2
