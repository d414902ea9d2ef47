"""API token: required whenever the server listens off loopback, optional on loopback; never
blank. When one is set, every path but ``OPEN_PATHS`` needs it (the OpenAPI document and the
docs pages included)."""

from __future__ import annotations

import hmac

from fastapi import Request

from papermind.errors import AuthError, ConfigError
from papermind.hosts import is_loopback

OPEN_PATHS = ("/health", "/login")


def check_token(token: str | None) -> None:
    """Refuse a blank token (empty or spaces): it would protect nothing."""
    if token is not None and not token.strip():
        raise ConfigError("the API token is blank: a token of spaces protects nothing",
                          hint="set PAPERMIND_API__TOKEN or --token to a long random string")


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve off loopback without a token, and a blank token anywhere."""
    check_token(token)
    if not is_loopback(host) and not token:
        raise ConfigError(f"listening on {host} needs an API token "
                          "(set PAPERMIND_API__TOKEN or pass --token)")


def authorize(request: Request, token: str | None) -> None:
    """Raise AuthError unless the request carries ``token`` (when one is set).

    Accepted: ``Authorization: Bearer <token>``, or a ``papermind_token`` cookie (set by the
    web UI's login form) so that page images and links work in a browser.
    """
    if not token or request.url.path in OPEN_PATHS:
        return
    header = request.headers.get("authorization", "")
    given = header[7:] if header.lower().startswith("bearer ") else request.cookies.get(
        "papermind_token", "")
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        raise AuthError("missing or wrong API token")
