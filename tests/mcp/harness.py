"""`papermind mcp` as a real subprocess, driven by the official MCP client over stdio or
streamable HTTP (127.0.0.1); its library home and settings come from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

from tests.api.server import free_port

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0
TRANSPORTS = ("stdio", "http")


def server_env(home: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "PAPERMIND_HOME": str(home), "PAPERMIND_SEARCH__EMBEDDER": "hashing",
           "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("PAPERMIND_API__TOKEN", None)
    return {**env, **extra}


@asynccontextmanager
async def http_server(env: dict[str, str], *args: str,
                      home: Path | None = None) -> AsyncIterator[str]:
    """`papermind [--home HOME] mcp --http` on a free loopback port; yields its /mcp URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "papermind", *home_flag(home), "mcp", "--http",
                             "--port", str(port), *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"mcp --http exited: {proc.stderr.read().decode()[-2000:]}"
                                   if proc.stderr else "mcp --http exited")
            try:
                httpx.get(f"http://127.0.0.1:{port}/mcp", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError("mcp --http did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@asynccontextmanager
async def connect(transport: str, env: dict[str, str], *, home: Path | None = None,
                  **options: Any) -> AsyncIterator[Client]:
    """An MCP client session with a fresh server over ``transport`` (``home``: --home)."""
    if transport == "stdio":
        params = StdioServerParameters(command=sys.executable, env=env,
                                       args=["-m", "papermind", *home_flag(home), "mcp"])
        async with Client(params, **options) as client:
            yield client
        return
    async with http_server(env, home=home) as url, Client(url, **options) as client:
        yield client


def home_flag(home: Path | None) -> list[str]:
    return ["--home", str(home)] if home is not None else []


def data(result: CallToolResult) -> Any:
    """The structured result of a successful call."""
    assert not result.is_error, text(result)
    return result.structured_content


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)
