"""Error pages for browsers: the same errors the API answers as problem+json, as HTML.

Which one a client gets is decided by its Accept header: a browser asks for text/html, a
script for JSON (or anything). ``install`` wraps the API's handlers, so the API's problem
table (api/errors.py) stays the one source of status codes.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from papermind.api.errors import STATUS
from papermind.errors import PapermindError
from papermind.web.pages import render

Handler = Callable[[Request, Any], Response | Awaitable[Response]]

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


def describe(err: Exception) -> tuple[int, str]:
    """(status, message for a person) of an error the API's handlers answer."""
    if isinstance(err, PapermindError):
        status = next((s for kind, s, _ in STATUS if isinstance(err, kind)), 500)
        return status, err.message  # without the CLI's hint ("see `papermind list`")
    if isinstance(err, RequestValidationError):
        issues = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: "
                           f"{e.get('msg', '')}" for e in err.errors())
        return 422, f"the address or form does not match what this page expects: {issues}"[:500]
    if isinstance(err, StarletteHTTPException):
        return err.status_code, str(err.detail)
    return 500, "internal error; the server log has details"


def _for_browsers(api: Handler) -> Handler:
    async def handle(request: Request, err: Exception) -> Response:
        if not prefers_html(request):
            answer = api(request, err)
            return await answer if inspect.isawaitable(answer) else answer
        status, detail = describe(err)
        return error_page(request, status, detail)
    return handle


def install(app: FastAPI) -> None:
    """Answer browsers with error pages, everyone else with the API's problem responses
    (call after ``api.errors.install``)."""
    for kind in (PapermindError, RequestValidationError, StarletteHTTPException):
        app.add_exception_handler(kind, _for_browsers(app.exception_handlers[kind]))
