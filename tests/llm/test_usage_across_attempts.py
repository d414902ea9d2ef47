"""A job's usage and budget span its attempts: a resumed job in a new process counts the
calls its killed predecessor made (they are stored with the job in the library file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import EndpointSettings, LLMSettings
from papermind.db import Database
from papermind.errors import BudgetExceededError
from papermind.llm import Gateway, build_gateway
from papermind.llm.endpoints import LangChainBackend
from papermind.llm.testing import ScriptedChatModel

ENDPOINT = EndpointSettings(provider="fake", model="scripted", max_retries=0)


def _process(db_path: Path, budget: int | None = None) -> Gateway:
    """What one server process builds: its own gateway over the same library file."""
    settings = LLMSettings(endpoints={"default": ENDPOINT}, cache=False,
                           job_token_budget=budget)
    model = ScriptedChatModel({"*": ["x" * 400] * 10})
    return build_gateway(settings, db=Database(db_path),
                         backends={"default": LangChainBackend(model)})


async def test_a_resumed_job_sees_every_earlier_call(tmp_path: Path) -> None:
    first = _process(tmp_path / "library.sqlite3").bind(job_id="job-1")
    await first.text("reader", [("user", "a")], node="read")
    await first.text("checker", [("user", "b")], node="check")
    tokens = first.usage.total().tokens
    # SIGKILL here; a new process resumes the job
    second = _process(tmp_path / "library.sqlite3").bind(job_id="job-1")
    await second.text("meta", [("user", "c")], node="meta")
    total = second.usage.total()
    assert total.calls == 3 and total.tokens > tokens
    assert set(second.usage.by_node()) == {"read", "check", "meta"}
    other = _process(tmp_path / "library.sqlite3").bind(job_id="job-2")
    assert other.usage.total().calls == 0


async def test_the_budget_counts_the_killed_attempt(tmp_path: Path) -> None:
    first = _process(tmp_path / "library.sqlite3", budget=250).bind(job_id="job-1")
    await first.text("reader", [("user", "a")])  # ~100 tokens, under the budget
    await first.text("reader", [("user", "b")])  # ~200: still under
    second = _process(tmp_path / "library.sqlite3", budget=250).bind(job_id="job-1")
    with pytest.raises(BudgetExceededError) as info:
        await second.text("reader", [("user", "c")])
    assert info.value.usage["calls"] == 3
