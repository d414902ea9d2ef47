"""The checkpoint serializer (our own models only) and the in-memory checkpointer.

The durable checkpointer is opened by the container only (``Container.checkpointer``).
"""

from __future__ import annotations

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
