"""Responses of scholarly sources kept in the library database (component ``scholar_cache``).

A lookup's answer (a 200 body, or a 404: "no such work" is an answer too) is stored under a
key of its source, path and parameters (never the contact e-mail or an API key), so a second
run of the same lookups sends nothing. Faults (429, 5xx, timeouts, malformed bodies) are
never stored.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from papermind.db import SqlDatabase

COMPONENT = "scholar_cache"


@dataclass(frozen=True)
class CachedResponse:
    status: int
    body: str


class ResponseStore(Protocol):
    """Where answers are kept (``ScholarCache``; a dict-backed one in tests)."""

    def get(self, key: str) -> CachedResponse | None: ...

    def put(self, key: str, source: str, request: str, answer: CachedResponse) -> None: ...


def request_key(source: str, path: str, params: Mapping[str, object]) -> tuple[str, str]:
    """(hash key, readable request) of a lookup; secrets and contact addresses left out."""
    kept = {k: str(v) for k, v in sorted(params.items())
            if k not in {"mailto", "api_key", "key"}}
    request = json.dumps({"path": path, "params": kept}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(f"{source}\n{request}".encode()).hexdigest(), request


class ScholarCache:
    """Get / put source answers in the library database."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT)

    def get(self, key: str) -> CachedResponse | None:
        rows = self.db.query("SELECT status, body FROM scholar_cache WHERE key = ?", (key,))
        return CachedResponse(int(rows[0]["status"]), rows[0]["body"]) if rows else None

    def put(self, key: str, source: str, request: str, answer: CachedResponse) -> None:
        self.db.execute(
            "INSERT INTO scholar_cache(key, source, request, status, body, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET status = excluded.status,"
            " body = excluded.body, created_at = excluded.created_at",
            (key, source, request, answer.status, answer.body, time.time()))

    def clear(self) -> int:
        return int(self.db.execute("DELETE FROM scholar_cache").rowcount)


class MemoryCache:
    """A cache that lives as long as the object (tests; no library at hand)."""

    def __init__(self) -> None:
        self.answers: dict[str, CachedResponse] = {}

    def get(self, key: str) -> CachedResponse | None:
        return self.answers.get(key)

    def put(self, key: str, source: str, request: str, answer: CachedResponse) -> None:
        self.answers[key] = answer
