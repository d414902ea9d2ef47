"""Which hosts are this machine's loopback (the API's bind check, the test guard on models),
and URLs with their credentials taken out (`redact`)."""

from __future__ import annotations

import ipaddress
import re
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


_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@")
_SECRET_PARAM = re.compile(
    r"(?i)([?&;][^=&\s#]*(?:key|token|secret|password|passwd|pwd|signature|sig|auth)"
    r"[^=&\s#]*=)[^&\s#]+")


def redact(text: str) -> str:
    """``text`` with every URL's user:password and secret-looking query values (api-key,
    token, secret, password, signature...) replaced by ``***``: safe for a response or a log."""
    return _SECRET_PARAM.sub(r"\1***", _USERINFO.sub(r"\1***@", text))
