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


def invalid(err: ValidationError) -> str:
    """A validation error in plain words, naming the argument: "bad input: argument 'k':
    input should be less than or equal to 200 (got 10000)" (no pydantic class or URL)."""
    parts = []
    for problem in err.errors(include_url=False)[:3]:
        where = ".".join(str(part) for part in problem["loc"])
        what = "is required" if problem["type"] == "missing" else \
            problem["msg"][:1].lower() + problem["msg"][1:]
        got = "" if problem["type"] == "missing" else f" (got {_shown(problem.get('input'))})"
        parts.append(f"argument '{where}' {what}{got}" if where else f"{what}{got}")
    return "bad input: " + "; ".join(parts)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def tool_errors(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run a tool; PaperMind's errors (and invalid domain data) become ToolError."""
    return _translated(fn, _as_tool_error)


def resource_errors(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run a resource read; a missing paper or page is 'not found' (-32602), any other of
    PaperMind's errors a resource error with its message."""
    return _translated(fn, _as_resource_error)


def _as_tool_error(err: Exception) -> Exception | None:
    if isinstance(err, errors.PapermindError):
        return ToolError(message(err))
    if isinstance(err, ValidationError):
        return ToolError(invalid(err))
    return None


def _as_resource_error(err: Exception) -> Exception | None:
    if isinstance(err, errors.NotFoundError):
        return ResourceNotFoundError(message(err))
    if isinstance(err, errors.PapermindError):
        return ResourceError(message(err))
    return None


def _translated(fn: Callable[P, Awaitable[T]],
                translate: Callable[[Exception], Exception | None]) -> Callable[P, Awaitable[T]]:
    """``fn`` with the errors ``translate`` knows raised as their MCP error (others as they are)."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except Exception as err:
            mcp_error = translate(err)
            if mcp_error is None:
                raise
            raise mcp_error from err

    return run
