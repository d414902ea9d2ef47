"""Fair share: one client cannot take the whole server with slow requests.

The requests that can block for long (an upload parsed in the worker, a request that asks
the scholarly sources) are counted while they run, per client address and in all. Past a
client's share, or past the server's total for that kind, the answer is at once a 429 with
``Retry-After``: the threads that answer ``/health``, ``/readyz``, the library list and the
static pages are never all taken by one kind of slow work. A kind is a row of ``SHARES``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

from papermind.api.errors import problem
from papermind.config import ApiSettings


@dataclass(frozen=True)
class Share:
    """A kind of slow request: which requests are of it, and how many may run at once."""

    kind: str
    methods: frozenset[str]
    path: re.Pattern[str]
    query: str | None = None
    """a query parameter that must be true for the request to be of this kind"""


SHARES = (
    Share("upload", frozenset({"POST"}), re.compile(r"^/(api/papers|ui/upload)/?$")),
    Share("scholar", frozenset({"GET"}), re.compile(r"^(/api)?/papers/[^/]+/references/?$")),
    Share("scholar", frozenset({"GET"}), re.compile(r"^/api/papers/[^/]+/check/?$"), "online"),
    Share("scholar", frozenset({"POST"}), re.compile(r"^/ui/add-by-id/?$")),
)


@dataclass(frozen=True)
class ShareLimits:
    """At most ``per_client`` requests of a kind from one address, ``total`` from all."""

    per_client: dict[str, int]
    total: dict[str, int]
    retry_after_s: int

    @classmethod
    def of(cls, api: ApiSettings) -> ShareLimits:
        return cls({"upload": api.uploads_per_client, "scholar": api.scholar_per_client},
                   {"upload": api.uploads_total, "scholar": api.scholar_total},
                   api.retry_after_s)


def kind_of(scope: Scope) -> str | None:
    """The SHARES kind of a request, None for one that is not counted."""
    for share in SHARES:
        if (scope["method"] in share.methods and share.path.match(scope["path"])
                and (share.query is None or _true(scope, share.query))):
            return share.kind
    return None


class FairShare:
    """ASGI middleware applying ``ShareLimits`` (see the module)."""

    def __init__(self, app: ASGIApp, limits: ShareLimits) -> None:
        self.app = app
        self.limits = limits
        self.running: Counter[tuple[str, str]] = Counter()
        self.totals: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = kind_of(scope) if scope["type"] == "http" else None
        if kind is None:
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        if (self.running[(client, kind)] >= self.limits.per_client.get(kind, 1)
                or self.totals[kind] >= self.limits.total.get(kind, 1)):
            response = problem(429, "too-many-requests",
                               f"too many {kind} requests at once; try again in "
                               f"{self.limits.retry_after_s} s")
            response.headers["Retry-After"] = str(self.limits.retry_after_s)
            await response(scope, receive, send)
            return
        self.running[(client, kind)] += 1
        self.totals[kind] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.running[(client, kind)] -= 1
            self.totals[kind] -= 1
            if self.running[(client, kind)] <= 0:
                del self.running[(client, kind)]


def _true(scope: Scope, name: str) -> bool:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return any(v.lower() in ("1", "true", "yes", "on") for v in query.get(name, []))
