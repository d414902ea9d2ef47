"""`papermind mcp`: the library as a Model Context Protocol server (the official SDK, `mcp`).

A thin interface like cli/ and api/: each tool parses its arguments, makes one service call
on the same container the CLI builds, and renders a structured result plus a short text.
"""
