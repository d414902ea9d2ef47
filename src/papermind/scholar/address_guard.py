"""Where the server may send a request: public addresses only, unless a host is named.

Every URL fetched for the scholarly sources (their APIs, a PDF location they name, a URL a
user gives to add, each redirect hop) is checked here before anything is sent: its host is
resolved, and when any of its addresses is loopback, link-local, private, shared,
multicast, reserved or unspecified the request is refused, unless the host (as written in
the URL) is listed in ``scholar.allow_hosts``. A refusal sends nothing and takes no longer
than a failed lookup, so it cannot be used to tell open ports from closed ones.

The request then goes to the address that was checked (``pinned``: the URL names the address,
the Host header and TLS's server name keep the host), so a DNS server answering differently
the second time (rebinding) changes nothing.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from papermind.errors import InputError

Resolver = Callable[[str, int], list[str]]
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_KINDS: list[tuple[str, Callable[[IpAddress], bool]]] = [
    ("unspecified", lambda ip: ip.is_unspecified),
    ("loopback", lambda ip: ip.is_loopback),
    ("link-local", lambda ip: ip.is_link_local),
    ("multicast", lambda ip: ip.is_multicast),
    ("private", lambda ip: ip.is_private),
    ("reserved", lambda ip: ip.is_reserved or not ip.is_global),
]
"""Address kinds never fetched, in the order a refusal names them (first match)."""


class RefusedAddress(InputError):
    """A URL that points where the server may not send requests (nothing was sent)."""


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (empty when it does not resolve)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def address_kind(text: str) -> str | None:
    """The refused kind of one address ("loopback", "private"...), None when public."""
    try:
        ip: IpAddress = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return "unreadable"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return next((name for name, test in _KINDS if test(ip)), None)


@dataclass(frozen=True)
class AddressGuard:
    """Refuses URLs that resolve to non-public addresses, except hosts allowed by name."""

    allow_hosts: frozenset[str] = frozenset()
    resolve: Resolver = system_resolver

    @classmethod
    def allowing(cls, hosts: Iterable[str], resolve: Resolver = system_resolver) -> AddressGuard:
        return cls(frozenset(h.strip().lower().strip("[]") for h in hosts if h.strip()), resolve)

    def check(self, url: str) -> str | None:
        """RefusedAddress unless ``url`` is http(s) and may be fetched; the checked address
        to connect to (``pinned``), None for a host allowed by name or one that does not
        resolve (the request then fails as any unreachable one does)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RefusedAddress(f"{shown_url(url)} is not an http(s) URL: nothing was sent")
        host = parts.hostname.lower()
        if host in self.allow_hosts:
            return None
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError as err:
            raise RefusedAddress(f"{shown_url(url)} has no valid port: nothing was sent") from err
        addresses = self._addresses(host, port)
        for address in addresses:
            kind = address_kind(address)
            if kind is not None:
                raise RefusedAddress(
                    f"{shown_url(url)} points at a {kind} address: nothing was sent",
                    hint="the server fetches only public addresses; an administrator can "
                         "allow a host by name in scholar.allow_hosts")
        return addresses[0] if addresses else None

    def _addresses(self, host: str, port: int) -> list[str]:
        if host == "localhost" or host.endswith(".localhost"):
            return ["127.0.0.1"]
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            return self.resolve(host, port)


def shown_url(url: str) -> str:
    """The URL without user:password or query (which may hold a key), cut short."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if _port(parts) else host
    return f"{parts.scheme}://{netloc}{parts.path}"[:200]


def _port(parts: SplitResult) -> int | None:
    try:
        return parts.port
    except ValueError:
        return None


def pinned(url: str, address: str) -> tuple[str, dict[str, str], dict[str, object]]:
    """(URL naming ``address``, headers, request extensions) that reach ``url``'s host at the
    checked address: Host names the host, and TLS checks its certificate against it."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    ip = f"[{address}]" if ":" in address else address
    netloc = f"{ip}:{parts.port}" if _port(parts) else ip
    shown_host = parts.netloc.rsplit("@", 1)[-1]
    extensions: dict[str, object] = {"sni_hostname": host} if parts.scheme == "https" else {}
    return parts._replace(netloc=netloc).geturl(), {"Host": shown_host}, extensions
