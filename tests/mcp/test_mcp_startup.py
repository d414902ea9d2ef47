"""`papermind mcp` starts fast: building the server and listing its tools loads none of the
heavy stacks (LangGraph, LangChain, llama.cpp, onnxruntime, numpy); the first call that
needs one loads it."""

from __future__ import annotations

import subprocess
import sys

from tests.cli.test_startup import HEAVY

PROBE = """
import asyncio, sys
from papermind.config import Settings
from papermind.mcp.server import build_server

async def main():
    server = build_server(Settings(home=sys.argv[1]))
    tools = await server.list_tools()
    await server.list_resources()
    assert len(tools) >= 6
    print(sorted({m.split('.')[0] for m in sys.modules} & set(HEAVY + ('numpy',))))

HEAVY = %r
asyncio.run(main())
"""


def test_building_the_server_and_listing_loads_no_heavy_stack(tmp_path: object) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE % (HEAVY,), str(tmp_path)],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.strip() == "[]"
