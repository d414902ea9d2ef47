"""Overhead of the model layer per call, against a raw HTTP client, on the mock server.

The mock OpenAI server (zero latency) runs in a separate process so that it does not share
the client's interpreter. Both clients make the same structured (tool-call) request; the raw
client parses and validates the tool arguments itself. Cache off.

    .venv/bin/python bench/llm_overhead.py [--calls 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel

from papermind.config import EndpointSettings, LLMSettings
from papermind.llm import build_gateway

RESULTS = Path(__file__).resolve().parent / "results" / "llm_overhead.md"
SERVER = ("import sys, time; from papermind.llm.testing import MockOpenAIServer\n"
          "m = MockOpenAIServer().start(); print(m.port, flush=True)\n"
          "sys.stdin.read(); m.stop()")


class Finding(BaseModel):
    """One finding."""

    claim: str
    page: int
    supported: bool


def payload(i: int) -> dict[str, Any]:
    schema = Finding.model_json_schema()
    return {"model": "mock-model", "temperature": 0.2, "max_tokens": 256,
            "messages": [{"role": "system", "content": "You read papers."},
                         {"role": "user", "content": f"paper {i}"}],
            "tools": [{"type": "function", "function": {
                "name": "Finding", "description": "One finding.", "parameters": schema}}],
            "tool_choice": {"type": "function", "function": {"name": "Finding"}}}


async def raw_calls(base: str, calls: int, concurrency: int) -> tuple[float, float]:
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        semaphore = asyncio.Semaphore(concurrency)

        async def one(i: int) -> Finding:
            async with semaphore:
                response = await client.post("/chat/completions", json=payload(i))
            response.raise_for_status()
            call = response.json()["choices"][0]["message"]["tool_calls"][0]
            return Finding.model_validate(json.loads(call["function"]["arguments"]))

        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*[one(i) for i in range(calls)])
        return time.perf_counter() - started, time.process_time() - cpu


async def layer_calls(base: str, calls: int, concurrency: int) -> tuple[float, float]:
    settings = LLMSettings(endpoints={"default": EndpointSettings(
        base_url=base, model="mock-model", max_concurrency=concurrency)}, cache=False)
    gateway = build_gateway(settings)
    await gateway.structured("reader", [("user", "warm-up")], Finding)
    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*[gateway.structured(
        "reader", [("system", "You read papers."), ("user", f"paper {i}")], Finding, node="n")
        for i in range(calls)])
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base = f"http://127.0.0.1:{server.stdout.readline().strip()}/v1"
        rows = []
        for concurrency in (1, 8, 32):
            raw, raw_cpu = asyncio.run(raw_calls(base, args.calls, concurrency))
            layer, layer_cpu = asyncio.run(layer_calls(base, args.calls, concurrency))
            rows.append((concurrency, raw, layer, raw_cpu, layer_cpu))
            print(f"concurrency {concurrency}: raw {args.calls / raw:.0f} calls/s, "
                  f"{raw_cpu / args.calls * 1000:.2f} ms CPU/call; layer "
                  f"{args.calls / layer:.0f} calls/s, {layer_cpu / args.calls * 1000:.2f} ms "
                  f"CPU/call; CPU ratio {layer_cpu / raw_cpu:.2f}", flush=True)
    finally:
        server.communicate("")
    write(rows, args.calls)


def write(rows: list[tuple[int, float, float, float, float]], calls: int) -> None:
    lines = ["# LLM layer overhead", "",
             f"Command: `.venv/bin/python bench/llm_overhead.py --calls {calls}`", "",
             "Mock OpenAI server (zero latency) in a separate process; structured tool-call "
             "requests; cache off. CPU = client-process CPU time per call (robust to other load "
             "on the 2 shared cores; wall-clock calls/s is not).", "",
             "| concurrency | raw calls/s | layer calls/s | raw CPU ms/call | layer CPU ms/call "
             "| layer / raw CPU |", "|---|---|---|---|---|---|"]
    for concurrency, raw, layer, raw_cpu, layer_cpu in rows:
        lines.append(f"| {concurrency} | {calls / raw:.0f} | {calls / layer:.0f} | "
                     f"{raw_cpu / calls * 1000:.2f} | {layer_cpu / calls * 1000:.2f} | "
                     f"{layer_cpu / raw_cpu:.2f} |")
    RESULTS.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
