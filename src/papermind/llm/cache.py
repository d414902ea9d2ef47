"""Persistent response cache in the library database (component ``llm_cache``).

The key covers everything that shapes an answer: endpoint, model, messages, schema,
temperature, max tokens and structured method. Only successful, valid results are stored,
so re-running an unchanged job costs no calls and a failure is never replayed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.messages import BaseMessage

from papermind.db import SqlDatabase


@dataclass(frozen=True)
class CachedAnswer:
    """A stored result: the validated JSON object or the text, and what it originally cost."""

    payload: Any
    tokens_in: int
    tokens_out: int


def cache_key(*, endpoint: str, model: str, messages: Sequence[BaseMessage],
              schema: dict[str, Any] | None, temperature: float, max_tokens: int,
              method: str) -> str:
    """A stable hash of everything that shapes the answer."""
    material = {
        "endpoint": endpoint, "model": model, "temperature": round(temperature, 4),
        "max_tokens": max_tokens, "method": method if schema else "text", "schema": schema,
        "messages": [[m.type, m.content] for m in messages],
    }
    blob = json.dumps(material, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CacheStore(Protocol):
    """The response-cache port (``ResponseCache`` keeps it in the library database, on
    either engine)."""

    def get(self, key: str) -> CachedAnswer | None: ...

    def put(self, key: str, *, endpoint: str, model: str, payload: Any, tokens_in: int,
            tokens_out: int) -> None: ...

    def clear(self) -> int: ...


class ResponseCache:
    """Get / put answers by key in the library db."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate("llm_cache")

    def get(self, key: str) -> CachedAnswer | None:
        rows = self.db.query(
            "SELECT payload, tokens_in, tokens_out FROM llm_cache WHERE key = ?", (key,))
        if not rows:
            return None
        row = rows[0]
        return CachedAnswer(json.loads(row["payload"]), row["tokens_in"], row["tokens_out"])

    def put(self, key: str, *, endpoint: str, model: str, payload: Any, tokens_in: int,
            tokens_out: int) -> None:
        self.db.execute(
            "INSERT INTO llm_cache(key, endpoint, model, payload, tokens_in, tokens_out,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET"
            " endpoint = excluded.endpoint, model = excluded.model, payload = excluded.payload,"
            " tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out,"
            " created_at = excluded.created_at",
            (key, endpoint, model, json.dumps(payload, ensure_ascii=False), tokens_in,
             tokens_out, time.time()))

    def clear(self) -> int:
        """Delete every cached answer; returns how many there were."""
        return int(self.db.execute("DELETE FROM llm_cache").rowcount)
