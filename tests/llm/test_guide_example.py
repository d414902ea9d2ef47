from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from papermind.errors import BudgetExceededError, StructuredOutputError
from papermind.llm import Gateway, PromptTemplate, fence_untrusted
from papermind.llm.testing import fake_gateway


class Claims(BaseModel):
    """Claims the paper makes."""

    claims: list[str] = Field(description="one sentence each")


PROMPT = """# extract_claims
## System
You extract the claims a paper makes.
## User
Title: {{title}}
{{paper}}
"""


async def extract_claims(gateway: Gateway, prompt: PromptTemplate, title: str, text: str) -> dict:
    """A node: one LLM call, returns a partial state update."""
    messages = prompt.render(title=title, paper=fence_untrusted(text))
    result = await gateway.structured("reader", messages, Claims, node="extract_claims")
    return {"claims": result.claims}


async def test_extract_claims(tmp_path: Path) -> None:
    (tmp_path / "extract_claims.md").write_text(PROMPT)
    prompt = PromptTemplate.load(tmp_path / "extract_claims.md", {"title", "paper"})
    gateway = fake_gateway({"reader": [
        "this is not JSON",                       # invalid: the gateway re-asks
        {"claims": ["X beats Y by 3 points"]},    # valid: returned as Claims
    ]})
    update = await extract_claims(gateway.bind(job_id="job-1"), prompt, "T", "Body text.")
    assert update == {"claims": ["X beats Y by 3 points"]}
    first, retry = gateway.calls
    assert (first.role, first.node, first.schema) == ("reader", "extract_claims", "Claims")
    assert "Body text." in first.text and "untrusted" in first.text
    assert "not valid JSON" in retry.messages[-1].content
    assert gateway.usage.by_node()["extract_claims"].attempts == 2
    assert gateway.usage.by_job()["job-1"].calls == 1


async def test_failure_and_budget() -> None:
    gateway = fake_gateway({"reader": ["bad"] * 3, "devil": ["x" * 800, "y"]})
    with pytest.raises(StructuredOutputError) as err:
        await gateway.structured("reader", [("user", "q")], Claims, node="n")
    assert err.value.attempts == 3
    job = gateway.bind(job_id="j", token_budget=100)
    with pytest.raises(BudgetExceededError):
        await job.text("devil", [("user", "q")], node="attack")
    assert job.usage.total().tokens > 100
