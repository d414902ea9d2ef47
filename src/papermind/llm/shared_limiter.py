"""Endpoint limits that hold across every process sharing one PostgreSQL (workers, API).

A rate-limited API key is shared by all workers, so ``max_concurrency`` and
``requests_per_minute`` must count every process's calls, not each process's own:

- concurrency: slot ``i`` of an endpoint is the advisory lock ``(key(endpoint), i)``, held on
  its own connection while a call is in flight. A process that dies drops its connections
  and PostgreSQL releases its slots at once: no lease to expire, no slot lost.
- requests per minute: one row per endpoint holds the next free start time on the database
  clock; every call reserves its start with one atomic upsert and sleeps until then.

Needs psycopg 3 (the ``postgres`` extra). One pool per event loop, like ``EndpointLimiter``.
"""

from __future__ import annotations

import asyncio
import random
import weakref
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from papermind.config import EndpointSettings
from papermind.errors import ConfigError

T = TypeVar("T")
POLL_S = 0.02
"""First wait between tries for a free slot (doubles up to 0.2 s, jittered)."""
_TABLE_LOCK = 0x6C6C6D  # "llm": serialises the pacing table's creation
PACE_TABLE = """
CREATE TABLE IF NOT EXISTS papermind_llm_pace (
    endpoint TEXT PRIMARY KEY,
    next_at DOUBLE PRECISION NOT NULL
)"""
RESERVE = """
INSERT INTO papermind_llm_pace AS p (endpoint, next_at)
VALUES (%(e)s, extract(epoch FROM clock_timestamp()) + %(i)s)
ON CONFLICT (endpoint) DO UPDATE
SET next_at = GREATEST(p.next_at, extract(epoch FROM clock_timestamp())) + %(i)s
RETURNING p.next_at - %(i)s - extract(epoch FROM clock_timestamp())"""


def lock_key(endpoint: str) -> int:
    """The advisory lock class (int4) of an endpoint's concurrency slots."""
    value = zlib.crc32(f"papermind-llm:{endpoint}".encode())
    return value - 2**32 if value >= 2**31 else value


class SharedLimiter:
    """``EndpointLimiter``'s contract (``run``), counted in PostgreSQL for all processes."""

    def __init__(self, url: str, endpoint: str, max_concurrency: int,
                 requests_per_minute: int | None = None) -> None:
        self.url, self.endpoint = url, endpoint
        self.max_concurrency = max(1, max_concurrency)
        self.interval = 60.0 / requests_per_minute if requests_per_minute else 0.0
        self.key = lock_key(endpoint)
        self._per_loop: weakref.WeakKeyDictionary[Any, tuple[Any, asyncio.Semaphore]] = (
            weakref.WeakKeyDictionary())
        self._table_ready = False
        _LIVE.add(self)

    async def run(self, call: Callable[[], Awaitable[T]], timeout_s: float | None) -> T:
        """Wait for a slot free in every process, keep the pace, then run ``call``."""
        async with self._slot() as conn:
            if self.interval:
                await self._pace(conn)
            if timeout_s is None:
                return await call()
            return await asyncio.wait_for(call(), timeout_s)

    async def aclose(self) -> None:
        """Close this loop's pool (``close_shared_limiters`` closes every limiter's)."""
        loop = asyncio.get_running_loop()
        pool, _ = self._per_loop.pop(loop, (None, None))
        if pool is not None:
            await pool.close()

    async def _primitives(self) -> tuple[Any, asyncio.Semaphore]:
        loop = asyncio.get_running_loop()
        if loop not in self._per_loop:
            try:
                from psycopg_pool import AsyncConnectionPool
            except ImportError as error:
                raise ConfigError("the shared LLM limiter needs psycopg",
                                  hint="pip install 'papermind[postgres]'") from error
            pool = AsyncConnectionPool(self.url, min_size=1, max_size=self.max_concurrency,
                                       kwargs={"autocommit": True}, open=False)
            self._per_loop[loop] = (pool, asyncio.Semaphore(self.max_concurrency))
            await pool.open()
        return self._per_loop[loop]

    @asynccontextmanager
    async def _slot(self) -> AsyncIterator[Any]:
        pool, local = await self._primitives()
        async with local, pool.connection() as conn:
            slot = await self._acquire(conn)
            try:
                yield conn
            finally:
                await _release(conn, self.key, slot)

    async def _acquire(self, conn: Any) -> int:
        wait = POLL_S
        while True:
            start = random.randrange(self.max_concurrency)
            for offset in range(self.max_concurrency):
                slot = (start + offset) % self.max_concurrency
                cursor = await conn.execute("SELECT pg_try_advisory_lock(%s, %s)",
                                            (self.key, slot))
                row = await cursor.fetchone()
                if row and row[0]:
                    return slot
            await asyncio.sleep(random.uniform(wait / 2, wait))
            wait = min(0.2, wait * 2)

    async def _pace(self, conn: Any) -> None:
        if not self._table_ready:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_TABLE_LOCK,))
                await conn.execute(PACE_TABLE)
            self._table_ready = True
        cursor = await conn.execute(RESERVE, {"e": self.endpoint, "i": self.interval})
        row = await cursor.fetchone()
        delay = float(row[0]) if row else 0.0
        if delay > 0:
            await asyncio.sleep(delay)


async def _release(conn: Any, key: int, slot: int) -> None:
    """Unlock the slot; if that fails, close the connection (which releases it too)."""
    try:
        await asyncio.shield(conn.execute("SELECT pg_advisory_unlock(%s, %s)", (key, slot)))
    except BaseException:
        await conn.close()
        raise


_LIVE: weakref.WeakSet[SharedLimiter] = weakref.WeakSet()


async def close_shared_limiters() -> None:
    """Close the running loop's pool of every shared limiter. Call it before the loop ends:
    psycopg_pool's workers swallow a cancellation that lands while they reconnect (after a
    call cancelled mid-flight closed its connection), so a pool still open when
    ``asyncio.run`` cancels the remaining tasks kept the loop from ever finishing (a
    stopping worker hung; tests/services/test_worker_shutdown.py)."""
    for limiter in list(_LIVE):
        await limiter.aclose()


def shared_limiters(url: str) -> Callable[[str, EndpointSettings], SharedLimiter]:
    """A gateway ``limiter_factory`` whose limits hold across every process on ``url``."""
    def build(name: str, endpoint: EndpointSettings) -> SharedLimiter:
        return SharedLimiter(url, name, endpoint.max_concurrency, endpoint.requests_per_minute)
    return build
