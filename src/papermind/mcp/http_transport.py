"""``papermind mcp --http``: streamable HTTP at ``/mcp``. On loopback a token is optional;
off loopback it is required (as for `papermind serve`) and checked on every request. Bodies
past ``mcp.max_request_kb`` are a 413."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from starlette.responses import JSONResponse

from papermind.api.security import check_bind
from papermind.mcp.request_bounds import LimitBody

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from papermind.mcp.server import PapermindServer


class RequireToken:
    """ASGI middleware: 401 unless ``Authorization: Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            header = dict(scope.get("headers", [])).get(b"authorization", b"")
            given = header[7:] if header[:7].lower() == b"bearer " else b""
            if not given or not hmac.compare_digest(given, self.token):
                response = JSONResponse({"error": "missing or wrong API token"}, status_code=401,
                                        headers={"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def serve_http(server: PapermindServer, host: str, port: int, token: str | None) -> None:
    """Serve until stopped; refuses to listen off loopback without a token."""
    import uvicorn

    check_bind(host, token)
    app: ASGIApp = LimitBody(server.streamable_http_app(host=host),
                             int(server.rt.settings.mcp.max_request_kb * 1024))
    if token:
        app = RequireToken(app, token)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
