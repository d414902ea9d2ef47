"""The front door: checks every request passes before any route runs.

One ASGI middleware, in order: the Host header must name this server (DNS rebinding);
a state-changing request from a browser must come from this server's own pages (Origin,
Referer or Sec-Fetch-Site); the body may not exceed its limit (413) nor trickle in slower
than the read timeout (408); and every response carries CSP, frame and sniffing headers.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from papermind.api.errors import problem
from papermind.hosts import is_loopback

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
UPLOAD_PATHS = {"/api/papers", "/ui/upload"}
MULTIPART_SLACK = 1 << 20
STRICT_CSP = (b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
              b"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
              b"frame-ancestors 'none'")
DOCS_PATHS = {"/docs", "/redoc", "/docs/oauth2-redirect"}
"""FastAPI's API docs load their script from a CDN and inline: they only get frame-ancestors."""
DOCS_CSP = b"frame-ancestors 'none'"
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


@dataclass(frozen=True)
class GuardPolicy:
    """What the front door allows (built from ApiSettings by ``policy_for``)."""

    allowed_hosts: frozenset[str] | None  # None: any Host (a server bound to all addresses)
    max_body_bytes: int
    max_upload_bytes: int
    body_timeout_s: float


def policy_for(host: str, allowed: list[str], max_body_kb: float, max_upload_mb: float,
               body_timeout_s: float) -> GuardPolicy:
    """Hosts: the configured list, else this server's own names when bound to one address."""
    names: set[str] | None = {h.lower() for h in allowed} if allowed else None
    if names is None and host not in ("0.0.0.0", "::", ""):
        names = {host.lower().strip("[]")}
        if is_loopback(host):
            names |= {"localhost", "127.0.0.1", "::1"}
    return GuardPolicy(frozenset(names) if names is not None else None, int(max_body_kb * 1024),
                       int(max_upload_mb * 2**20) + MULTIPART_SLACK, body_timeout_s)


class BodyRejected(Exception):
    def __init__(self, status: int, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.kind, self.detail = status, kind, detail


class FrontDoor:
    """The middleware applying a GuardPolicy."""

    def __init__(self, app: ASGIApp, policy: GuardPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        rejected: list[BodyRejected] = []

        async def secured(message: Message) -> None:
            nonlocal started
            if rejected:
                return  # the app's answer to a body we cut off is replaced by ours
            if message["type"] == "http.response.start":
                started = True
                csp = DOCS_CSP if scope["path"] in DOCS_PATHS else STRICT_CSP
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS,
                                      (b"content-security-policy", csp)]
            await send(message)

        refusal = self._refusal(scope, Headers(scope=scope))
        if refusal is not None:
            await problem(*refusal)(scope, receive, secured)
            return
        try:
            await self.app(scope, self._bounded(receive, self._limit(scope), rejected), secured)
        except Exception:
            if not rejected:
                raise
        if rejected and not started:
            err = rejected[0]
            rejected.clear()
            await problem(err.status, err.kind, err.detail)(scope, receive, secured)

    def _limit(self, scope: Scope) -> int:
        return (self.policy.max_upload_bytes if scope["path"] in UPLOAD_PATHS
                else self.policy.max_body_bytes)

    def _refusal(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        host = _host_name(headers.get("host", ""))
        allowed = self.policy.allowed_hosts
        if allowed is not None and host not in allowed:
            return 400, "bad-host", f"this server does not answer for host {host or '(none)'!r}"
        if scope["method"] in UNSAFE and not _same_origin(headers):
            return 403, "cross-site-request", "cross-site requests may not change anything"
        length = headers.get("content-length")
        limit = self._limit(scope)
        if length is not None and length.isdigit() and int(length) > limit:
            return 413, "payload-too-large", f"the request body is larger than {limit} bytes"
        return None

    def _bounded(self, receive: Receive, limit: int, rejected: list[BodyRejected]) -> Receive:
        """``receive`` that stops a body over ``limit`` bytes or slower than the timeout."""
        seen = 0
        body_done = False
        timeout = self.policy.body_timeout_s

        async def bounded() -> Message:
            nonlocal seen, body_done
            if body_done:
                return await receive()  # e.g. waiting for http.disconnect: no timeout
            try:
                message = await asyncio.wait_for(receive(), timeout)
            except TimeoutError:
                rejected.append(BodyRejected(
                    408, "request-timeout", f"the request body did not arrive within {timeout:g} s"))
                raise rejected[-1] from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if seen > limit:
                    rejected.append(BodyRejected(
                        413, "payload-too-large", f"the request body is larger than {limit} bytes"))
                    raise rejected[-1]
            else:
                body_done = True
            return message

        return bounded


def _host_name(value: str) -> str:
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _same_origin(headers: Headers) -> bool:
    """False when a browser says the request comes from another site."""
    if headers.get("sec-fetch-site") in ("cross-site", "same-site"):
        return False
    host = headers.get("host", "").lower()
    origin = headers.get("origin")
    if origin is not None:
        return origin != "null" and urlsplit(origin).netloc.lower() == host
    referer = headers.get("referer")
    if referer:
        return urlsplit(referer).netloc.lower() == host
    return True  # not a browser form or script (curl, the CLI, other programs)
