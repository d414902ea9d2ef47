"""A coroutine run in a new event loop that ends cleanly (CLI commands, sync wrappers)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_loop(work: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(work)``, closing the loop's shared LLM limiter pools (of every storage
    backend that has them) before it ends: one left reconnecting kept ``asyncio.run`` from
    ever returning (``llm.shared_limiter``)."""
    from papermind.services.storage import BACKENDS

    async def main() -> T:
        try:
            return await work
        finally:
            for backend in BACKENDS.values():
                if backend.shared_limits is not None:
                    await backend.shared_limits.close()

    return asyncio.run(main())
