"""A size limit on every MCP request: one stdio line, one HTTP body (``mcp.max_request_kb``).

Over stdio the SDK reads whole lines, however long: ``bounded_stdin`` puts a relay in front of
it (a thread reading the real stdin with a cap, passing lines through a pipe that becomes the
process's stdin), so an over-long line is drained and dropped, never held in memory, and
logged. Over HTTP, ``LimitBody`` answers 413 to a body past the cap (declared or received).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING

from starlette.responses import JSONResponse

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("papermind.mcp")
CHUNK = 64 * 1024


def relay_lines(source: IO[bytes], sink: IO[bytes], max_bytes: int) -> int:
    """Copy ``source`` to ``sink`` line by line, dropping lines longer than ``max_bytes``
    (read in chunks, never whole); the number dropped."""
    dropped = 0
    while line := source.readline(max_bytes + 1):
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while (rest := source.readline(CHUNK)) and not rest.endswith(b"\n"):
                pass
            dropped += 1
            log.warning("mcp request dropped: a line longer than %d bytes", max_bytes)
            continue
        sink.write(line)
        sink.flush()
    return dropped


@contextmanager
def bounded_stdin(max_bytes: int) -> Iterator[None]:
    """For the block, fd 0 is a pipe fed by a relay of the real stdin (``relay_lines``)."""
    real = os.dup(0)
    read_end, write_end = os.pipe()
    os.dup2(read_end, 0)
    os.close(read_end)

    def relay() -> None:
        with os.fdopen(real, "rb") as source, os.fdopen(write_end, "wb", buffering=0) as sink, \
                contextlib.suppress(OSError):  # the server went away: nothing left to feed
            relay_lines(source, sink, max_bytes)

    thread = threading.Thread(target=relay, name="mcp-stdin-relay", daemon=True)
    thread.start()
    yield


class LimitBody:
    """ASGI middleware: 413 for a request body longer than ``max_bytes`` (declared, or
    counted while it is read; the body is then passed on to the app)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        body, more = b"", True
        while more:  # at most max_bytes held: the body is refused as soon as it passes them
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse({"error": f"request larger than {self.max_bytes} bytes "
                                          "(mcp.max_request_kb)"}, status_code=413)
        await response(scope, receive, send)
