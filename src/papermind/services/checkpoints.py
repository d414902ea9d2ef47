"""The checkpoint serializer (our own models only) and the in-memory checkpointer.

The durable checkpointer is opened by the container only (``Container.checkpointer``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel


def _papermind_models() -> list[type]:
    """Every pydantic model class defined in papermind (imported so far)."""
    found: list[type] = []
    stack: list[type[BaseModel]] = [BaseModel]
    seen: set[type[BaseModel]] = set()
    while stack:
        cls = stack.pop()
        for sub in list(cls.__subclasses__()):
            if sub in seen:
                continue
            seen.add(sub)
            stack.append(sub)
            if sub.__module__.startswith("papermind."):
                found.append(sub)
    return found


def serializer() -> JsonPlusSerializer:
    """Checkpoint serializer that deserializes papermind models and nothing unknown."""
    return JsonPlusSerializer(allowed_msgpack_modules=_papermind_models() or None)


def memory_checkpointer() -> InMemorySaver:
    """In-memory checkpointer (tests, one-off runs)."""
    return InMemorySaver(serde=serializer())


_SETUP_LOCK = 0x636B7074  # "ckpt": one checkpoint-table migration at a time
_ready: set[str] = set()


@asynccontextmanager
async def postgres_checkpointer(url: str) -> AsyncIterator[Any]:
    """LangGraph's Postgres checkpointer on ``url`` (tables created once per server, under
    an advisory lock, so workers starting together do not race). Opened by the container."""
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    async with AsyncPostgresSaver.from_conn_string(url, serde=serializer()) as saver:
        if url not in _ready:
            await _setup_once(url, saver)
            _ready.add(url)
        yield saver


async def _setup_once(url: str, saver: Any) -> None:
    """``saver.setup()`` under an advisory lock, taken by polling: its migrations build
    indexes CONCURRENTLY, which wait for every open statement, a blocked lock call too."""
    import asyncio

    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as lock:
        while True:
            row = await (await lock.execute("SELECT pg_try_advisory_lock(%s)",
                                            (_SETUP_LOCK,))).fetchone()
            if row and row[0]:
                break
            await asyncio.sleep(0.1)
        await saver.setup()  # the lock goes with its connection
