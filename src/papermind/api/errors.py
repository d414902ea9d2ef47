"""The one table from errors to HTTP problem responses (RFC 9457, application/problem+json)."""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from papermind import errors
from papermind.disk_writes import storage_fault
from papermind.services.uploads import PayloadTooLarge, UnsupportedType

log = logging.getLogger("papermind.api")

STATUS: list[tuple[type[errors.PapermindError], int, str]] = [
    (PayloadTooLarge, 413, "payload-too-large"),
    (UnsupportedType, 415, "unsupported-media-type"),
    (errors.NotFoundError, 404, "not-found"),
    (errors.AuthError, 401, "unauthorized"),
    (errors.IngestError, 422, "unreadable-file"),
    (errors.InputError, 400, "bad-input"),
    (errors.ConflictError, 409, "conflict"),
    (errors.StorageError, 507, "insufficient-storage"),
    (errors.BudgetExceededError, 402, "budget-exceeded"),
    (errors.ProviderError, 502, "model-endpoint-failed"),
    (errors.OfflineError, 409, "offline"),
    (errors.ConfigError, 500, "configuration"),
    (errors.PapermindError, 500, "error"),
]
"""First match wins: subclasses come before their parents."""


def problem(status: int, kind: str, detail: str, **extra: object) -> JSONResponse:
    body = {"type": f"https://papermind.dev/problems/{kind}", "title": kind.replace("-", " "),
            "status": status, "detail": detail, **extra}
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, media_type="application/problem+json",
                        headers=headers)


def http_detail(err: errors.PapermindError) -> str:
    """The message, with its hint unless the hint names a command of the CLI ("see
    `papermind list`" helps at a terminal, not a client of the API or the web)."""
    if err.hint and "papermind " not in err.hint:
        return f"{err.message} ({err.hint})"
    return err.message


def install(app: FastAPI, *, home: Path | None = None) -> None:
    """Route every error through ``problem``; never send a stack trace to a client. A full
    disk is a 507 naming the place (``home``, the library folder, when the error names none)."""

    @app.exception_handler(errors.PapermindError)
    async def _papermind(_: Request, err: errors.PapermindError) -> JSONResponse:
        for kind, status, name in STATUS:
            if isinstance(err, kind):
                return problem(status, name, http_detail(err))
        return problem(500, "error", http_detail(err))

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, err: RequestValidationError) -> JSONResponse:
        issues = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
                  for e in err.errors()]
        return problem(422, "invalid-request", "the request does not match the API", errors=issues)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, err: StarletteHTTPException) -> JSONResponse:
        return problem(err.status_code, "http-error", str(err.detail))

    app.add_middleware(CatchUnhandled, home=home)


class CatchUnhandled:
    """Answer an unhandled error with a 500 problem and log it, without re-raising.

    Starlette's own last-resort handler re-raises after answering, which makes uvicorn close
    the connection: a client's next request on that keep-alive connection then fails.
    """

    def __init__(self, app: ASGIApp, home: Path | None = None) -> None:
        self.app = app
        self.home = home

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as err:
            fault = storage_fault(err, self.home)
            if fault is not None:
                log.error("%s %s: %s", scope.get("method"), scope.get("path"), fault)
            else:
                log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # too late for a problem response; uvicorn closes the connection
            response = problem(507, "insufficient-storage", str(fault)) if fault else \
                problem(500, "internal-error", "internal error; the server log has details")
            await response(scope, receive, send)
