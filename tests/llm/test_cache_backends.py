"""The response cache on both storage backends."""

from __future__ import annotations

from papermind.db import SqlDatabase
from papermind.llm.cache import ResponseCache


def test_put_get_overwrite_and_clear(library_db: SqlDatabase) -> None:
    cache = ResponseCache(library_db)
    assert cache.get("k") is None
    cache.put("k", endpoint="e", model="m", payload={"a": [1, "é"]}, tokens_in=3, tokens_out=4)
    cache.put("k", endpoint="e", model="m", payload={"a": 2}, tokens_in=5, tokens_out=6)
    hit = cache.get("k")
    assert hit is not None and (hit.payload, hit.tokens_in, hit.tokens_out) == ({"a": 2}, 5, 6)
    assert ResponseCache(library_db).clear() == 1
    assert cache.get("k") is None
