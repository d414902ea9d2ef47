"""Backends: one object per endpoint that sends a chat request and returns the raw reply.

Every provider speaks through a LangChain chat model (ChatOpenAI for any OpenAI-compatible
server, the bundled model's managed server included; the scripted fake in tests); only this
package knows.
Structured output is requested per endpoint: ``function_calling`` (a forced tool call),
``json_schema`` (response_format) or ``json_mode`` (JSON object + schema in the prompt).
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage

from papermind.config import EndpointSettings
from papermind.errors import ConfigError
from papermind.llm.guard import check_endpoint_allowed


@dataclass(frozen=True)
class SchemaSpec:
    """The JSON schema a structured call asks for."""

    name: str
    description: str
    json_schema: dict[str, Any]


@dataclass(frozen=True)
class ChatRequest:
    """One request to a backend."""

    messages: list[BaseMessage]
    model: str
    temperature: float
    max_tokens: int
    schema: SchemaSpec | None = None
    method: str = "function_calling"
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChatReply:
    """What came back: text content and/or tool-call arguments, and the tokens used."""

    content: str
    tool_args: dict[str, Any] | None
    tool_error: str | None
    tokens_in: int
    tokens_out: int
    finish_reason: str | None = None
    raw_tool_args: str | None = None  # the text of tool-call arguments that did not parse


class ChatBackend(Protocol):
    """Sends one request (no retries, no timeout: the gateway owns those)."""

    async def complete(self, request: ChatRequest) -> ChatReply: ...


def json_mode_instruction(spec: SchemaSpec) -> str:
    """The system-prompt addition that asks for a JSON object matching ``spec``."""
    return ("Reply with a single JSON object, and nothing else, that is valid against this "
            f"JSON schema ({spec.name}):\n{json.dumps(spec.json_schema, ensure_ascii=False)}")


def with_instruction(messages: list[BaseMessage], instruction: str) -> list[BaseMessage]:
    """Append ``instruction`` to the system message (adding one if there is none)."""
    if messages and isinstance(messages[0], SystemMessage):
        first = SystemMessage(f"{messages[0].content}\n\n{instruction}")
        return [first, *messages[1:]]
    return [SystemMessage(instruction), *messages]


class LangChainBackend:
    """Any LangChain chat model; structured output by tools or response_format kwargs.

    Given a factory instead of a model, it builds one chat model per event loop, because
    HTTP connection pools belong to the loop that opened them (a CLI may run several loops).
    """

    def __init__(self, chat_model: BaseChatModel | Callable[[], BaseChatModel]) -> None:
        self._fixed = chat_model if isinstance(chat_model, BaseChatModel) else None
        self._factory = None if isinstance(chat_model, BaseChatModel) else chat_model
        self._per_loop: weakref.WeakKeyDictionary[Any, BaseChatModel] = (
            weakref.WeakKeyDictionary())

    @property
    def chat_model(self) -> BaseChatModel:
        if self._fixed is not None:
            return self._fixed
        assert self._factory is not None
        loop = asyncio.get_running_loop()
        if loop not in self._per_loop:
            self._per_loop[loop] = self._factory()
        return self._per_loop[loop]

    async def complete(self, request: ChatRequest) -> ChatReply:
        kwargs: dict[str, Any] = {"temperature": request.temperature,
                                  "max_tokens": request.max_tokens}
        messages = request.messages
        spec = request.schema
        runnable: Any = self.chat_model
        if spec is not None and request.method == "function_calling":
            tool = {"type": "function", "function": {
                "name": spec.name, "description": spec.description,
                "parameters": spec.json_schema}}
            runnable = self.chat_model.bind_tools([tool], tool_choice=spec.name)
        elif spec is not None and request.method == "json_schema":
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": spec.name, "schema": spec.json_schema, "strict": False}}
        elif spec is not None:
            kwargs["response_format"] = {"type": "json_object"}
            messages = with_instruction(messages, json_mode_instruction(spec))
        config = {"metadata": request.metadata, "run_name": request.metadata.get(
            "papermind_node") or "llm"}
        try:
            message = await runnable.ainvoke(messages, config=config, **kwargs)
        except Exception as err:
            cut = _cut_reply(err)
            if cut is None:
                raise
            return cut
        return reply_from_message(message)


def _cut_reply(err: Exception) -> ChatReply | None:
    """The reply inside the OpenAI SDK's LengthFinishReasonError (a response_format reply
    that hit max_tokens), so a cut reply is handled as one, not as a rejected request."""
    completion = getattr(err, "completion", None)
    if type(err).__name__ != "LengthFinishReasonError" or not getattr(completion, "choices", None):
        return None
    assert completion is not None
    usage = getattr(completion, "usage", None)
    return ChatReply(completion.choices[0].message.content or "", None, None,
                     int(getattr(usage, "prompt_tokens", 0) or 0),
                     int(getattr(usage, "completion_tokens", 0) or 0), "length")


def reply_from_message(message: BaseMessage) -> ChatReply:
    """Content, first tool call and token usage of an AI message."""
    content = message.content if isinstance(message.content, str) else "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in message.content)
    tool_args: dict[str, Any] | None = None
    tool_error: str | None = None
    raw_tool_args: str | None = None
    tokens_in = tokens_out = 0
    finish = None
    if isinstance(message, AIMessage):
        if message.tool_calls:
            tool_args = dict(message.tool_calls[0]["args"])
        elif message.invalid_tool_calls:
            bad = message.invalid_tool_calls[0]
            raw_tool_args = str(bad.get("args") or "")
            tool_error = f"the tool-call arguments were not valid JSON: {raw_tool_args!r:.300}"
        usage: dict[str, Any] = dict(message.usage_metadata or {})
        tokens_in, tokens_out = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
        finish = message.response_metadata.get("finish_reason")
    return ChatReply(content, tool_args, tool_error, tokens_in, tokens_out, finish, raw_tool_args)


def openai_backend(name: str, endpoint: EndpointSettings) -> LangChainBackend:
    """ChatOpenAI against any OpenAI-compatible server; retries are ours, not the SDK's."""
    check_endpoint_allowed(name, endpoint.base_url)
    from langchain_openai import ChatOpenAI

    if not endpoint.model:
        raise ConfigError(f"endpoint {name!r} has no model",
                          hint=f"set PAPERMIND_LLM__ENDPOINTS__{name.upper()}__MODEL")
    import openai

    def build() -> BaseChatModel:
        client = openai.DefaultAsyncHttpxClient(timeout=endpoint.timeout_s)
        return ChatOpenAI(model=endpoint.model, base_url=endpoint.base_url,
                          api_key=endpoint.api_key or "not-needed", http_async_client=client,
                          timeout=endpoint.timeout_s, max_retries=0, use_responses_api=False)
    return LangChainBackend(build)


def anthropic_backend(name: str, endpoint: EndpointSettings) -> LangChainBackend:
    """Anthropic through langchain-anthropic (the optional ``anthropic`` extra).

    ``base_url`` is the API root (default https://api.anthropic.com, no ``/v1``); structured
    output goes through a forced tool call, the one method Anthropic offers.
    """
    check_endpoint_allowed(name, endpoint.base_url or "https://api.anthropic.com")
    try:
        from langchain_anthropic import ChatAnthropic
    except ImportError as err:
        raise ConfigError(f"endpoint {name!r} needs the anthropic extra",
                          hint="pip install 'papermind[anthropic]'") from err
    if endpoint.structured_method != "function_calling":
        raise ConfigError(f"endpoint {name!r}: Anthropic supports only "
                          "structured_method='function_calling'")

    def build() -> BaseChatModel:
        return ChatAnthropic(model=endpoint.model, api_key=endpoint.api_key or "not-needed",
                             base_url=endpoint.base_url, timeout=endpoint.timeout_s,
                             max_retries=0, stop=None)
    return LangChainBackend(build)
