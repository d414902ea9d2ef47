"""A real local HTTP server speaking OpenAI chat completions, with fault injection.

It listens on 127.0.0.1 at a random port in a background thread. Replies come from a queue
(``queue(...)``), a ``responder(request) -> reply`` callable, or by default a minimal valid
instance of the requested schema (tool call, json_schema or json mode). Faults are drawn per
request at the given rates: see ``Fault``. Every request body, the fault injected, and the
peak number of requests in flight are recorded.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import Any

import uvicorn

from papermind.llm.testing.schema_example import example_for

Reply = dict[str, Any] | str


class Fault:
    """Fault kinds for ``MockOpenAIServer(faults={kind: rate})``."""

    RATE_LIMIT = "429"           # 429 with Retry-After / retry-after-ms
    SERVER_ERROR = "500"         # 500 with an error body
    TIMEOUT = "timeout"          # no answer for ``hang_s`` seconds
    SLOW = "slow"                # answers after ``slow_s`` extra seconds
    TRUNCATED = "truncated"      # the model output cut mid-JSON, finish_reason "length"
    INVALID_JSON = "invalid_json"  # the model output is prose, not JSON
    BROKEN_BODY = "broken_body"  # HTTP 200 whose body is cut-off JSON
    ALL = (RATE_LIMIT, SERVER_ERROR, TIMEOUT, SLOW, TRUNCATED, INVALID_JSON, BROKEN_BODY)


class MockOpenAIServer:
    """``with MockOpenAIServer() as mock: ChatOpenAI(base_url=mock.base_url, ...)``."""

    def __init__(self, *, responder: Callable[[dict[str, Any]], Reply] | None = None,
                 faults: dict[str, float] | None = None, latency_s: float = 0.0,
                 hang_s: float = 30.0, slow_s: float = 0.2, retry_after_s: float = 0.01,
                 model: str = "mock-model", seed: int = 0) -> None:
        unknown = set(faults or {}) - set(Fault.ALL)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; use {Fault.ALL}")
        self.responder, self.faults = responder, dict(faults or {})
        self.latency_s, self.hang_s, self.slow_s = latency_s, hang_s, slow_s
        self.retry_after_s, self.model = retry_after_s, model
        self._rng = random.Random(seed)
        self._queue: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.fault_log: list[str] = []
        self.in_flight = 0
        self.peak_in_flight = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> MockOpenAIServer:
        config = uvicorn.Config(self._app, host="127.0.0.1", port=0, log_level="error",
                                lifespan="off", timeout_graceful_shutdown=1, interface="asgi3",
                                access_log=False, backlog=512)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="mock-openai", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("mock OpenAI server did not start")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        self._stopping = True
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> MockOpenAIServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None and self._server.servers, "server not started"
        return int(self._server.servers[0].sockets[0].getsockname()[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting -------------------------------------------------------------------------
    def queue(self, *replies: Reply) -> None:
        """Replies served in order before the responder / default (dict = structured)."""
        self._queue.extend(replies)

    @property
    def request_count(self) -> int:
        return len(self.requests)

    def reset(self) -> None:
        """Forget recorded requests and counters (the queue and faults stay)."""
        self.requests.clear()
        self.fault_log.clear()
        self.peak_in_flight = 0

    # -- ASGI ------------------------------------------------------------------------------
    async def _app(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["method"] == "GET" and scope["path"] in ("/health", "/metrics"):
            await _send_raw(send, 200, b"llamacpp:requests_deferred 0\n")  # llama.cpp's
            return
        if scope["method"] == "GET" and scope["path"] == "/v1/models":
            await _send(send, 200, {"object": "list", "data": [
                {"id": self.model, "object": "model", "owned_by": "mock"}]})
            return
        anthropic = scope["path"] == "/v1/messages"  # Anthropic's Messages API, same faults
        if not anthropic and scope["path"] != "/v1/chat/completions":
            await _send(send, 404, {"error": {"message": "not found"}})
            return
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            await self._complete(json.loads(body or b"{}"), send, anthropic)
        finally:
            self.in_flight -= 1

    async def _complete(self, request: dict[str, Any], send: Any, anthropic: bool) -> None:
        self.requests.append(request)
        fault = self._draw_fault()
        self.fault_log.append(fault)
        await self._sleep(self.latency_s + (self.slow_s if fault == Fault.SLOW else 0.0))
        if fault == Fault.TIMEOUT:
            await self._sleep(self.hang_s)
        if fault == Fault.RATE_LIMIT:
            headers = [(b"retry-after-ms", str(int(self.retry_after_s * 1000)).encode()),
                       (b"retry-after", str(max(0, round(self.retry_after_s))).encode())]
            await _send(send, 429, {"error": {"message": "rate limited", "type": "rate_limit"}},
                        headers)
            return
        if fault == Fault.SERVER_ERROR:
            await _send(send, 500, {"error": {"message": "internal error", "type": "server"}})
            return
        payload = self._completion(request, fault)
        if anthropic:
            payload = as_anthropic(payload)
        if fault == Fault.BROKEN_BODY:
            raw = json.dumps(payload).encode()
            await _send_raw(send, 200, raw[: len(raw) // 2])
            return
        await _send(send, 200, payload)

    def _draw_fault(self) -> str:
        for kind, rate in self.faults.items():
            if self._rng.random() < rate:
                return kind
        return "ok"

    async def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self._stopping and time.monotonic() < end:
            await asyncio.sleep(min(0.05, max(0.0, end - time.monotonic())))

    def _reply_for(self, request: dict[str, Any]) -> Reply:
        if self._queue:
            return self._queue.popleft()
        if self.responder is not None:
            return self.responder(request)
        schema = requested_schema(request)
        return example_for(schema) if schema is not None else "mock reply"

    def _completion(self, request: dict[str, Any], fault: str) -> dict[str, Any]:
        reply = self._reply_for(request)
        tools = request.get("tools") or []
        text = reply if isinstance(reply, str) else json.dumps(reply)
        finish = "stop"
        if fault == Fault.TRUNCATED:
            text, finish = text[: max(1, len(text) // 2)], "length"
        elif fault == Fault.INVALID_JSON:
            text = "Sure! Here is the answer you asked for, in prose."
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if tools and (not isinstance(reply, str) or fault in (Fault.TRUNCATED,
                                                               Fault.INVALID_JSON)):
            name = tools[0]["function"]["name"] if "function" in tools[0] else tools[0]["name"]
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{len(self.requests)}", "type": "function",
                "function": {"name": name, "arguments": text}}]}
            finish = "tool_calls" if finish == "stop" else finish
        prompt_chars = sum(len(str(m.get("content") or "")) for m in request.get("messages", []))
        usage = {"prompt_tokens": max(1, prompt_chars // 4),
                 "completion_tokens": max(1, len(text) // 4)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion",
                "created": int(time.time()), "model": request.get("model", self.model),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage}


def as_anthropic(completion: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI chat completion rewritten as an Anthropic Messages API response."""
    choice = completion["choices"][0]
    message = choice["message"]
    content: list[dict[str, Any]] = []
    for call in message.get("tool_calls") or []:
        try:
            arguments = json.loads(call["function"]["arguments"])
        except json.JSONDecodeError:
            arguments = {"_unparseable": call["function"]["arguments"]}
        content.append({"type": "tool_use", "id": call["id"], "name": call["function"]["name"],
                        "input": arguments})
    if message.get("content"):
        content.append({"type": "text", "text": message["content"]})
    stop = {"length": "max_tokens", "tool_calls": "tool_use"}.get(choice["finish_reason"],
                                                                   "end_turn")
    return {"id": completion["id"], "type": "message", "role": "assistant",
            "model": completion["model"], "content": content, "stop_reason": stop,
            "stop_sequence": None, "usage": {
                "input_tokens": completion["usage"]["prompt_tokens"],
                "output_tokens": completion["usage"]["completion_tokens"]}}


def requested_schema(request: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema a chat request asks for (tool, json_schema, or json-mode prompt)."""
    tools = request.get("tools") or []
    if tools and "input_schema" in tools[0]:  # Anthropic
        return dict(tools[0]["input_schema"])
    if tools:
        return dict(tools[0]["function"].get("parameters") or {})
    response_format = request.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        return dict(response_format["json_schema"].get("schema") or {})
    if response_format.get("type") == "json_object":
        for message in request.get("messages", []):
            content = str(message.get("content") or "")
            start = content.find("JSON schema")
            if start >= 0 and ":\n" in content[start:]:
                try:
                    return dict(json.loads(content[start:].split(":\n", 1)[1]))
                except (json.JSONDecodeError, ValueError):
                    continue
        return {"type": "object"}
    return None


async def _send(send: Any, status: int, payload: dict[str, Any],
                headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await _send_raw(send, status, json.dumps(payload).encode(), headers)


async def _send_raw(send: Any, status: int, body: bytes,
                    headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
