"""Error pages for browsers: the same errors the API answers as problem+json, as HTML.

Which one a client gets is decided by its Accept header: a browser asks for text/html, a
script for JSON (or anything). The API's problem table stays the one source of status codes.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from papermind.web.pages import render

HTML = ("text/html", "application/xhtml+xml")
JSON = ("application/json", "application/problem+json")
TITLES = {400: "That request cannot be used", 401: "Sign in first", 402: "Over budget",
          404: "Not found", 409: "Not possible right now", 413: "Too large",
          415: "Unsupported file", 422: "That cannot be read", 502: "The model endpoint failed"}
FALLBACK_TITLE = "Something went wrong"


def _weights(accept: str) -> dict[str, float]:
    weights: dict[str, float] = {}
    for part in accept.split(","):
        media, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for param in params:
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        weights[media.lower()] = max(q, weights.get(media.lower(), 0.0))
    return weights


def prefers_html(request: Request) -> bool:
    """True when the client ranks HTML above JSON (``*/*`` counts for neither)."""
    weights = _weights(request.headers.get("accept", ""))
    html = max((weights.get(m, 0.0) for m in HTML), default=0.0)
    json = max((weights.get(m, 0.0) for m in JSON), default=0.0)
    return html > json


def error_page(request: Request, status: int, detail: str) -> HTMLResponse:
    """The error ``detail`` in the app's layout, with a way back."""
    title = TITLES.get(status, FALLBACK_TITLE)
    response = render(request, "error.html", status=status, title=title, detail=detail,
                      code=status, error=None)
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response
