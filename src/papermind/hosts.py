"""Which hosts are this machine's loopback (the API's bind check, the test guard on models)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlparse


def is_loopback(host_or_url: str | None) -> bool:
    """True for localhost, 127.0.0.0/8 and ::1, given as a host or as an http(s) URL."""
    if not host_or_url:
        return False  # no URL: the provider's public default
    host = urlparse(host_or_url).hostname if "://" in host_or_url else host_or_url
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False
