"""A shared-limiter call cancelled twice (the second time while its slot is being unlocked,
as a stopping worker does), then the event loop ends (``services.loops.run_loop``, as every
CLI command's): ``python -m tests.support.limiter_cancel PG_URL``. Prints ``exited`` once the
loop has ended."""

from __future__ import annotations

import asyncio
import sys

from papermind.llm.shared_limiter import SharedLimiter
from papermind.services.loops import run_loop


async def main(url: str) -> None:
    limiter = SharedLimiter(url, "ep", max_concurrency=1)

    async def slow() -> None:
        await asyncio.sleep(10)

    task = asyncio.create_task(limiter.run(slow, timeout_s=None))
    await asyncio.sleep(0.5)
    task.cancel()  # the call stops; its slot's unlock starts
    for _ in range(3):
        await asyncio.sleep(0)
    task.cancel()  # again, mid-unlock: the connection is closed and the pool reconnects
    await asyncio.gather(task, return_exceptions=True)


if __name__ == "__main__":
    run_loop(main(sys.argv[1]))  # asyncio.run here never returned
    print("exited")
