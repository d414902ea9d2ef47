"""A scripted fake chat model and a real Gateway built on it, for workflow tests.

Responses are queued per role (key ``"*"`` serves any role whose queue is empty or absent).
A response is a dict or Pydantic object (structured output: it comes back as the forced
tool call), a str (plain text, or raw/invalid JSON for a structured call), an Exception
(raised), or a callable ``(messages) -> any of those``. Every prompt is recorded in ``.calls``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ConfigDict, PrivateAttr


class ScriptExhaustedError(AssertionError):
    """A test asked for more responses than it scripted."""


@dataclass(frozen=True)
class RecordedCall:
    """One prompt the fake model received."""

    role: str | None
    node: str | None
    schema: str | None
    messages: list[BaseMessage]
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """All message contents joined: handy for ``assert "..." in call.text``."""
        return "\n".join(str(m.content) for m in self.messages)


class ScriptedChatModel(BaseChatModel):
    """Replies from per-role queues; records every call."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    model_name: str = "scripted"
    _queues: dict[str, deque[Any]] = PrivateAttr(default_factory=dict)
    _calls: list[RecordedCall] = PrivateAttr(default_factory=list)

    def __init__(self, script: dict[str, Iterable[Any]] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        for role, responses in (script or {}).items():
            self.queue(role, *responses)

    @property
    def calls(self) -> list[RecordedCall]:
        return self._calls

    def queue(self, role: str, *responses: Any) -> None:
        """Append responses for ``role`` (``"*"`` = any role)."""
        self._queues.setdefault(role, deque()).extend(responses)

    def remaining(self) -> dict[str, int]:
        """Unused responses per role (assert it is empty at the end of a test if you like)."""
        return {role: len(q) for role, q in self._queues.items() if q}

    @property
    def _llm_type(self) -> str:
        return "papermind-scripted"

    def bind_tools(self, tools: Any, *, tool_choice: Any = None,
                   **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=list(tools), tool_choice=tool_choice, **kwargs)

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None,
                  **kwargs: Any) -> ChatResult:
        metadata = run_manager.metadata if run_manager else {}
        return self._reply(messages, metadata, kwargs)

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None,
                         **kwargs: Any) -> ChatResult:
        metadata = run_manager.metadata if run_manager else {}
        return self._reply(messages, metadata, kwargs)

    def _reply(self, messages: list[BaseMessage], metadata: dict[str, Any],
               kwargs: dict[str, Any]) -> ChatResult:
        role = metadata.get("papermind_role")
        self._calls.append(RecordedCall(role, metadata.get("papermind_node"),
                                        metadata.get("papermind_schema"), list(messages), kwargs))
        response = self._next(role)
        while callable(response) and not isinstance(response, type):
            response = response(messages)
        if isinstance(response, BaseException):
            raise response
        message = self._message(response, kwargs, messages)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _next(self, role: str | None) -> Any:
        for key in (role, "*"):
            if key is not None and self._queues.get(key):
                return self._queues[key].popleft()
        raise ScriptExhaustedError(f"no scripted response left for role {role!r} "
                                   f"(scripted roles: {sorted(self._queues)})")

    def _message(self, response: Any, kwargs: dict[str, Any],
                 messages: list[BaseMessage]) -> AIMessage:
        if isinstance(response, AIMessage):
            return response
        if isinstance(response, BaseModel):
            response = response.model_dump(mode="json")
        tools = kwargs.get("tools") or []
        if isinstance(response, dict) and tools:
            name = tools[0]["function"]["name"] if "function" in tools[0] else "tool"
            message = AIMessage("", tool_calls=[{"name": name, "args": response,
                                                 "id": f"call_{len(self._calls)}"}])
            out = json.dumps(response)
        else:
            out = response if isinstance(response, str) else json.dumps(response)
            message = AIMessage(out)
        prompt_chars = sum(len(str(m.content)) for m in messages)
        tokens_in, tokens_out = max(1, prompt_chars // 4), max(1, len(out) // 4)
        message.usage_metadata = {"input_tokens": tokens_in, "output_tokens": tokens_out,
                                  "total_tokens": tokens_in + tokens_out}
        message.response_metadata = {"model_name": self.model_name, "finish_reason": "stop"}
        return message


Response = Any
"""dict | BaseModel | str | Exception | Callable[[list[BaseMessage]], Response]"""
ResponseFn = Callable[[list[BaseMessage]], Response]
