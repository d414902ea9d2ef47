"""One bounded HTTP exchange: the address guard on every hop, a deadline, a size cap.

``bounded_get`` sends a GET to the address the ``AddressGuard`` checked (``pinned``), follows
redirects itself (each new URL checked before anything is sent to it), and reads the body while streaming, stopping
as soon as it passes ``max_bytes`` or the ``Deadline`` passes: neither a 1 GiB answer nor a
server that drips one byte every few seconds can hold memory or a caller for long.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import httpx

from papermind.scholar.address_guard import AddressGuard, pinned

REDIRECTS = {301, 302, 303, 307, 308}


class TooLarge(Exception):
    """The answer is longer than the cap (nothing more was read)."""


class DeadlinePassed(Exception):
    """The lookup or download ran out of its total time."""


class TooManyRedirects(Exception):
    """More redirects than allowed."""


@dataclass
class Deadline:
    """A total time budget, started at creation."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    def left(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def check(self) -> None:
        if self.left() <= 0:
            raise DeadlinePassed(f"no answer within {self.seconds:g} s")


@dataclass(frozen=True)
class Answer:
    """A response read in full (within the cap)."""

    status: int
    headers: httpx.Headers
    body: bytes
    url: str

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def bounded_get(client: httpx.Client, url: str, params: Mapping[str, str], *,
                guard: AddressGuard, deadline: Deadline, max_bytes: int,
                timeout_s: float, follow: bool = False, max_redirects: int = 5) -> Answer:
    """GET ``url`` within the bounds (see the module). Raises RefusedAddress, TooLarge,
    DeadlinePassed, TooManyRedirects or httpx's transport errors."""
    query: Mapping[str, str] | None = params
    for _ in range(max_redirects + 1):
        address = guard.check(url)
        target, headers, extensions = pinned(url, address) if address else (url, {}, {})
        deadline.check()
        timeout = max(min(timeout_s, deadline.left()), 0.05)
        with client.stream("GET", target, params=query, headers=headers, timeout=timeout,
                           extensions=extensions) as response:
            location = response.headers.get("location")
            if follow and response.status_code in REDIRECTS and location:
                url, query = str(httpx.URL(url).join(location)), None
                continue
            body = read_capped(response, max_bytes, deadline)
            return Answer(response.status_code, response.headers, body, str(response.url))
    raise TooManyRedirects(f"more than {max_redirects} redirects")


def read_capped(response: httpx.Response, max_bytes: int, deadline: Deadline) -> bytes:
    """The body, refused past ``max_bytes`` (declared or received) or past the deadline."""
    declared = response.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > max_bytes:
        raise TooLarge(f"it announced {int(declared)} bytes")
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise TooLarge(f"it sent more than {max_bytes} bytes")
        deadline.check()
        chunks.append(chunk)
    return b"".join(chunks)
