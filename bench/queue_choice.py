"""Which job queue for `papermind worker`: pgqueuer, procrastinate (PostgreSQL) or arq (Redis).

One-off choice benchmark (results in bench/results/queue_choice.md). Each library runs no-op
jobs in worker subprocesses on this machine's PostgreSQL / Redis; a job appends
``n start_time pid`` to a log file, so every number is measured from the outside:

- pickup latency: 20 jobs enqueued 0.2 s apart into idle workers, start - enqueue;
- drain: N jobs enqueued at once, time until the last one started, with W workers;
- recovery: a 60 s job starts, its worker is SIGKILLed, seconds until another worker
  starts it again (pgqueuer: heartbeat_timeout 4 s; procrastinate: worker heartbeat 1 s,
  stalled after 4 s, plus the retry loop its docs ask for; arq has no heartbeat: the job
  waits for its in-progress key to expire, job_timeout + 10 s, so it is not measured).

The libraries are not PaperMind dependencies except the one chosen; install the others
into a scratch folder and put it on PYTHONPATH:

    pip install --target /tmp/q/procrastinate procrastinate==3.10.0  (same for arq==0.28.0)
    PYTHONPATH=src:/tmp/q/procrastinate python bench/queue_choice.py procrastinate
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

PG = os.environ.get("PAPERMIND_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
LOG_DIR = Path(os.environ.get("QUEUE_BENCH_DIR", "/tmp/queue-bench"))
HEARTBEAT_S = 4.0
Enqueue = Callable[[list[tuple[int, float]]], Awaitable[None]]


def dsn(lib: str) -> str:
    return PG.rsplit("/", 1)[0] + f"/qbench_{lib}"


def record(lib: str, n: int) -> None:
    with (LOG_DIR / f"{lib}.log").open("a") as out:
        out.write(f"{n} {time.time():.6f} {os.getpid()}\n")


async def job_body(lib: str, n: int, seconds: float) -> None:
    record(lib, n)
    await asyncio.sleep(seconds)


# -- pgqueuer --------------------------------------------------------------------------------
async def pgqueuer_worker() -> None:
    import psycopg
    from pgqueuer import PgQueuer

    conn = await psycopg.AsyncConnection.connect(dsn("pgqueuer"), autocommit=True)
    pgq = PgQueuer.from_psycopg_connection(conn)

    @pgq.entrypoint("job")
    async def job(job: object) -> None:
        n, seconds = (getattr(job, "payload", b"") or b"0 0").decode().split()
        await job_body("pgqueuer", int(n), float(seconds))

    from datetime import timedelta

    await pgq.run(heartbeat_timeout=timedelta(seconds=HEARTBEAT_S),
                  dequeue_timeout=timedelta(seconds=5), batch_size=1)


@asynccontextmanager
async def pgqueuer_enqueuer() -> AsyncIterator[Enqueue]:
    import psycopg
    from pgqueuer import Queries

    async with await psycopg.AsyncConnection.connect(dsn("pgqueuer"), autocommit=True) as conn:
        queries = Queries.from_psycopg_connection(conn)

        async def enqueue(items: list[tuple[int, float]]) -> None:
            await queries.enqueue(["job"] * len(items), [f"{n} {s}".encode() for n, s in items],
                                  [0] * len(items))
        yield enqueue


async def pgqueuer_install() -> None:
    import psycopg
    from pgqueuer import Queries

    async with await psycopg.AsyncConnection.connect(dsn("pgqueuer"), autocommit=True) as conn:
        await Queries.from_psycopg_connection(conn).install()


# -- procrastinate ---------------------------------------------------------------------------
def procrastinate_app() -> object:
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=dsn("procrastinate")))

    @app.task(name="job", queue="bench")
    async def job(n: int, seconds: float) -> None:
        await job_body("procrastinate", n, seconds)

    return app


async def procrastinate_worker() -> None:
    app = procrastinate_app()
    async with app.open_async():  # type: ignore[attr-defined]
        async def retry_stalled() -> None:
            while True:
                await asyncio.sleep(1.0)
                for stalled in await app.job_manager.get_stalled_jobs(
                        seconds_since_heartbeat=HEARTBEAT_S):  # type: ignore[attr-defined]
                    await app.job_manager.retry_job(stalled)  # type: ignore[attr-defined]

        retry = asyncio.create_task(retry_stalled())
        await app.run_worker_async(queues=["bench"], concurrency=10, wait=True,  # type: ignore[attr-defined]
                                   update_heartbeat_interval=1.0,
                                   stalled_worker_timeout=HEARTBEAT_S)
        retry.cancel()


@asynccontextmanager
async def procrastinate_enqueuer() -> AsyncIterator[Enqueue]:
    app = procrastinate_app()
    async with app.open_async():  # type: ignore[attr-defined]
        task = app.tasks["job"]  # type: ignore[attr-defined]

        async def enqueue(items: list[tuple[int, float]]) -> None:
            await task.batch_defer_async(*[{"n": n, "seconds": s} for n, s in items])
        yield enqueue


async def procrastinate_install() -> None:
    app = procrastinate_app()
    async with app.open_async():  # type: ignore[attr-defined]
        await app.schema_manager.apply_schema_async()  # type: ignore[attr-defined]


# -- arq -------------------------------------------------------------------------------------
async def arq_job(ctx: dict[str, object], n: int, seconds: float) -> None:
    await job_body("arq", n, seconds)


async def arq_worker() -> None:
    from arq.connections import RedisSettings
    from arq.worker import Worker

    worker = Worker(functions=[arq_job], redis_settings=RedisSettings(), max_jobs=10,
                    queue_name="i15b-bench", poll_delay=0.05, job_timeout=600,
                    handle_signals=False)
    await worker.async_run()


@asynccontextmanager
async def arq_enqueuer() -> AsyncIterator[Enqueue]:
    from arq import create_pool
    from arq.connections import RedisSettings

    redis = await create_pool(RedisSettings(), default_queue_name="i15b-bench")

    async def enqueue(items: list[tuple[int, float]]) -> None:
        for n, s in items:
            await redis.enqueue_job("arq_job", n, s)
    yield enqueue
    await redis.aclose()


async def arq_install() -> None:
    from arq import create_pool
    from arq.connections import RedisSettings

    redis = await create_pool(RedisSettings())
    keys = [k async for k in redis.scan_iter("arq:*")] + [b"i15b-bench"]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


LIBS = {"pgqueuer": (pgqueuer_worker, pgqueuer_enqueuer, pgqueuer_install),
        "procrastinate": (procrastinate_worker, procrastinate_enqueuer, procrastinate_install),
        "arq": (arq_worker, arq_enqueuer, arq_install)}


# -- the driver ------------------------------------------------------------------------------
def starts(lib: str) -> dict[int, list[tuple[float, int]]]:
    found: dict[int, list[tuple[float, int]]] = {}
    path = LOG_DIR / f"{lib}.log"
    for line in path.read_text().splitlines() if path.exists() else []:
        n, at, pid = line.split()
        found.setdefault(int(n), []).append((float(at), int(pid)))
    return found


def wait_for(lib: str, n: int, count: int = 1, timeout: float = 120.0) -> list[tuple[float, int]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = starts(lib).get(n, [])
        if len(seen) >= count:
            return seen
        time.sleep(0.01)
    raise TimeoutError(f"job {n} did not start {count}x")


def fresh_database(lib: str) -> None:
    if lib == "arq":
        return
    import psycopg

    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS qbench_{lib} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE qbench_{lib}")


def spawn(lib: str, workers: int) -> list[subprocess.Popen[bytes]]:
    with (LOG_DIR / f"{lib}.err").open("ab") as err:
        procs = [subprocess.Popen([sys.executable, __file__, lib, "--worker"],
                                  stdout=subprocess.DEVNULL, stderr=err) for _ in range(workers)]
    time.sleep(3.0)  # imports and connections
    return procs


def main(lib: str, jobs: int, workers: int) -> None:
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    (LOG_DIR / f"{lib}.log").unlink(missing_ok=True)
    fresh_database(lib)
    _worker, enqueuer, install = LIBS[lib]
    asyncio.run(install())
    procs = spawn(lib, workers)
    try:
        print(asyncio.run(measure(lib, enqueuer, jobs, workers)), flush=True)
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


async def measure(lib: str, enqueuer: Callable[[], object], jobs: int, workers: int) -> str:
    async with enqueuer() as enqueue:  # type: ignore[attr-defined]
        latencies = []
        for n in range(20):
            sent = time.time()
            await enqueue([(n, 0.0)])
            latencies.append((await asyncio.to_thread(wait_for, lib, n))[0][0] - sent)
            await asyncio.sleep(0.2)
        sent = time.time()
        await enqueue([(1000 + n, 0.0) for n in range(jobs)])
        last = 0.0
        for n in range(jobs):
            last = max(last, (await asyncio.to_thread(wait_for, lib, 1000 + n))[0][0])
        drain = last - sent
        recovery = None
        if lib != "arq" and workers > 1:
            await enqueue([(99999, 60.0)])
            (_, pid), = await asyncio.to_thread(wait_for, lib, 99999)
            os.kill(pid, signal.SIGKILL)
            killed = time.time()
            again = (await asyncio.to_thread(wait_for, lib, 99999, 2, 90))[1]
            recovery = again[0] - killed
    lat = sorted(latencies)
    return (f"| {lib} | {workers} | {statistics.median(lat) * 1000:.0f} | "
            f"{lat[int(0.95 * (len(lat) - 1))] * 1000:.0f} | {jobs} in {drain:.2f} s "
            f"({jobs / drain:.0f}/s) | {'-' if recovery is None else f'{recovery:.1f} s'} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lib", choices=sorted(LIBS))
    parser.add_argument("--worker", action="store_true", help="run as a worker (internal)")
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(LIBS[args.lib][0]())
    else:
        main(args.lib, args.jobs, args.workers)
