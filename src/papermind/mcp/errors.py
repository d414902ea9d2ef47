"""The one table from PaperMind's errors to MCP errors: a tool answers ``isError`` with the
user-safe message (what the model reads); a resource answers a JSON-RPC error. Anything
else is a crash: the SDK logs it and tells the client only which tool failed."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from pydantic import ValidationError

from papermind import errors

P = ParamSpec("P")
T = TypeVar("T")

KINDS: list[tuple[type[errors.PapermindError], str]] = [
    (errors.NotFoundError, "not found"),
    (errors.InputError, "bad input"),
    (errors.ConfigError, "not configured"),
    (errors.AuthError, "not allowed"),
    (errors.BudgetExceededError, "over budget"),
    (errors.ProviderError, "model failed"),
    (errors.ConflictError, "conflict"),
    (errors.PapermindError, "error"),
]
"""First match wins (subclasses before their parents): the word that leads the message."""


def message(err: errors.PapermindError) -> str:
    kind = next(word for cls, word in KINDS if isinstance(err, cls))
    return f"{kind}: {err}"


def _invalid(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"bad input: {where + ': ' if where else ''}{first['msg']}"


def tool_errors(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run a tool; PaperMind's errors (and invalid domain data) become ToolError."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except errors.PapermindError as err:
            raise ToolError(message(err)) from err
        except ValidationError as err:
            raise ToolError(_invalid(err)) from err

    return run


def resource_errors(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run a resource read; a missing paper or page is 'not found' (-32602), any other of
    PaperMind's errors a resource error with its message."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except errors.NotFoundError as err:
            raise ResourceNotFoundError(message(err)) from err
        except errors.PapermindError as err:
            raise ResourceError(message(err)) from err

    return run
