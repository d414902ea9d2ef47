"""The bundled model as an endpoint: its managed server, reached like any OpenAI-compatible one.

Each call makes sure the server for this library home runs (starting it if it stopped when
idle or was killed), then goes through the same ``openai_backend`` as a configured endpoint,
with the JSON schema both in the prompt (a 0.5B model needs to read it) and as the server's
decoding constraint. While a call runs, a watcher logs every ``every_s`` whether it waits in
the server's queue (other processes' calls go first) or is generating, and how busy the
machine is.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import replace
from pathlib import Path

import httpx

from papermind.config import EndpointSettings, LocalModelSettings
from papermind.llm.endpoints import (
    ChatBackend,
    ChatReply,
    ChatRequest,
    json_mode_instruction,
    openai_backend,
    with_instruction,
)
from papermind.llm.local_server import ServerState, ensure_server

log = logging.getLogger("papermind.llm")


class ManagedLocalBackend:
    """The bundled model through its managed llama.cpp server."""

    every_s = 15.0

    def __init__(self, name: str, endpoint: EndpointSettings, settings: LocalModelSettings,
                 home: Path | None) -> None:
        self.name = name
        self.endpoint = endpoint
        self.settings = settings
        self.home = home
        self._backends: dict[tuple[int, str], ChatBackend] = {}

    async def server(self) -> ServerState:
        """The running server (started on first use, or again after it stopped)."""
        return await asyncio.to_thread(ensure_server, self.home, self.settings)

    def _backend(self, state: ServerState) -> ChatBackend:
        key = (state.port, state.token)
        if key not in self._backends:
            endpoint = self.endpoint.model_copy(update={
                "provider": "openai", "base_url": state.base_url, "api_key": state.token,
                "model": state.model, "structured_method": "json_schema"})
            self._backends = {key: openai_backend(self.name, endpoint)}
        return self._backends[key]

    async def complete(self, request: ChatRequest) -> ChatReply:
        state = await self.server()
        if request.schema is not None:
            request = replace(request, method="json_schema", messages=with_instruction(
                request.messages, json_mode_instruction(request.schema)))
        request = replace(request, model=state.model)
        role = str(request.metadata.get("papermind_role") or "model")
        watcher = asyncio.create_task(self._watch(state, role))
        try:
            return await self._backend(state).complete(request)
        finally:
            watcher.cancel()

    async def _watch(self, state: ServerState, role: str) -> None:
        started = time.monotonic()
        while True:
            await asyncio.sleep(self.every_s)
            waiting = await queue_length(state)
            log.warning("%s", describe_wait(role, time.monotonic() - started, waiting,
                                            state.parallel))


async def queue_length(state: ServerState) -> int | None:
    """Calls waiting in the server's queue (its /metrics), or None when it does not say."""
    try:
        async with httpx.AsyncClient(timeout=5.0) as client:
            response = await client.get(f"http://127.0.0.1:{state.port}/metrics",
                                        headers={"Authorization": f"Bearer {state.token}"})
    except httpx.HTTPError:
        return None
    for line in response.text.splitlines():
        if line.startswith("llamacpp:requests_deferred "):
            return int(float(line.split()[1]))
    return None


def describe_wait(role: str, elapsed: float, waiting: int | None, parallel: int) -> str:
    """A progress line for a call to the bundled model that has run ``elapsed`` seconds."""
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    machine = (f"the machine is busy (load {load:.1f} on {cpus} CPUs)" if load > cpus
               else f"the bundled model runs on {cpus} CPUs (load {load:.1f})")
    if waiting:
        what = (f"waits in the local model server's queue ({waiting} calls wait; it answers "
                f"{parallel} at a time)")
    else:
        what = "is being answered"
    return (f"local model ({role}): the call {what}, {elapsed:.0f} s so far; slow because "
            f"{machine}; still working")
