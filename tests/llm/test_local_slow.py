"""The in-process model on a busy machine: bounded by tokens, never by a wall-clock timeout,
with progress that says what is slow. A fake llama stands in (the `local` extra is not
needed): it generates slowly, one token at a time, through the real LocalBackend."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from papermind.config import EndpointSettings, LLMSettings
from papermind.errors import ProviderError
from papermind.llm import build_gateway
from papermind.llm.endpoints import ChatReply, ChatRequest
from papermind.llm.local import LocalBackend, ProgressMeter

SLOW_LOCAL = EndpointSettings(provider="local", model="fake-local", timeout_s=0.2,
                              max_retries=0)


class SlowLlama:
    """Generates ``tokens`` tokens at ``seconds_per_token``, calling the logits processors."""

    def __init__(self, tokens: int = 8, seconds_per_token: float = 0.06) -> None:
        self.tokens = tokens
        self.seconds_per_token = seconds_per_token
        self.max_tokens: int | None = None

    def reset(self) -> None:
        pass

    def create_chat_completion(self, *, messages: Any, temperature: float,
                               max_tokens: int | None, logits_processor: Any,
                               **_: Any) -> dict[str, Any]:
        self.max_tokens = max_tokens
        count = min(self.tokens, max_tokens or self.tokens)
        for _ in range(count):
            time.sleep(self.seconds_per_token)
            for processor in logits_processor:
                processor([], [0.0])
        return {"choices": [{"message": {"content": "slow but done"}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": count}}


class SlowRemote:
    """The same slowness behind a network endpoint: that one may time out."""

    async def complete(self, request: ChatRequest) -> ChatReply:
        import asyncio

        await asyncio.sleep(0.5)
        return ChatReply("late", None, None, 1, 1, "stop")


def _gateway(backend: Any) -> Any:
    settings = LLMSettings(endpoints={"default": SLOW_LOCAL}, cache=False,
                           default_max_tokens=64)
    return build_gateway(settings, backends={"default": backend})


async def test_a_slow_local_model_is_not_cut_off_by_a_timeout() -> None:
    llama = SlowLlama(tokens=8, seconds_per_token=0.06)  # ~0.5 s, over the 0.2 s timeout
    reply = await _gateway(LocalBackend(llama)).text("reader", [("user", "hi")])
    assert reply == "slow but done"
    assert llama.max_tokens == 64  # bounded by tokens instead


async def test_a_slow_remote_endpoint_still_times_out() -> None:
    with pytest.raises(ProviderError, match="timeout"):
        await _gateway(SlowRemote()).text("reader", [("user", "hi")])


def test_progress_says_how_far_and_what_is_slow(monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(ProgressMeter, "every_s", 0.1)
    monkeypatch.setattr("os.getloadavg", lambda: (9.0, 9.0, 9.0))
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    backend = LocalBackend(SlowLlama(tokens=6, seconds_per_token=0.05))
    request = ChatRequest([], "fake-local", 0.2, 32, None, "json_mode",
                          {"papermind_role": "reviewer"})
    with caplog.at_level(logging.WARNING, logger="papermind.llm"):
        backend._complete(request)
    progress = [r.getMessage() for r in caplog.records if "local model" in r.getMessage()]
    assert progress, "no progress was logged"
    assert "reviewer" in progress[0] and "of at most 32" in progress[0]
    assert "the machine is busy (load 9.0 on 2 CPUs)" in progress[0]
