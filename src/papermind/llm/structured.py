"""Structured output: extract JSON from a reply, validate it, and phrase the feedback.

A reply is accepted only when it validates against the requested Pydantic schema. Otherwise
the gateway sends the validation error back and asks again, within a bound; there is no
fallback to free text.

A JSON reply cut off at its token limit is kept up to its last complete element
(``salvage_cut_reply``) when that still validates: asking again costs another full-length
generation that, at a low temperature, is cut off at the same place (seen with the bundled
0.5B model, three times 2,048 tokens for one reading). What the model finished is kept and
checked like any answer; the unfinished tail is dropped, never completed.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, TypeVar

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel, ValidationError

from papermind.llm.endpoints import ChatReply, SchemaSpec

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


class InvalidOutput(Exception):
    """A reply that does not satisfy the schema; ``str()`` is the feedback for the model
    (it may quote the reply); ``reason`` says what was wrong without quoting it, for users."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


@functools.lru_cache(maxsize=512)
def schema_spec(schema: type[BaseModel]) -> SchemaSpec:
    """Tool / response-format description of a Pydantic class (computed once per class)."""
    doc = (schema.__doc__ or "").strip().split("\n\n")[0]
    name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64]
    return SchemaSpec(name, doc or f"Return a {schema.__name__}.", schema.model_json_schema())


def payload_of(reply: ChatReply) -> Any:
    """The JSON value a reply carries (tool-call arguments first, then the text)."""
    if reply.tool_args is not None:
        return reply.tool_args
    if reply.tool_error:
        raise InvalidOutput(reply.tool_error, reply.tool_error.split(":", 1)[0])
    text = reply.content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    if not text:
        raise InvalidOutput("the reply was empty; a JSON object was expected")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(text[start:end + 1])
            except json.JSONDecodeError:
                pass
    cut = " (it was cut off: the output hit its token limit)" if reply.finish_reason == "length" else ""
    raise InvalidOutput(f"the reply was not valid JSON{cut}: {text[:200]!r}",
                        f"the reply was not valid JSON{cut}")


def salvage_cut_reply(schema: type[T], reply: ChatReply) -> tuple[T, int] | None:
    """(value, characters dropped) from a JSON reply cut off at its token limit: the longest
    prefix that ends after a complete element, closed and validated; None if there is none."""
    if reply.finish_reason != "length" or reply.tool_args is not None:
        return None
    text = reply.raw_tool_args if reply.tool_error and reply.raw_tool_args else reply.content
    start = text.find("{")
    if start < 0:
        return None
    for end, closers in reversed(_cut_points(text, start)):
        try:
            payload = json.loads(text[start:end].rstrip().rstrip(",") + closers)
            if not _has_content(payload):
                return None  # only empty brackets before the cut: nothing was finished
            value = validate(schema, payload)
        except (json.JSONDecodeError, InvalidOutput):
            continue
        return value, len(text) - end
    return None


def _has_content(payload: Any) -> bool:
    if isinstance(payload, dict):
        return any(_has_content(v) for v in payload.values())
    if isinstance(payload, list):
        return any(_has_content(v) for v in payload)
    return payload not in (None, "")


def _cut_points(text: str, start: int) -> list[tuple[int, str]]:
    """Where a JSON text could be cut and closed: after a closing bracket or before a comma
    (never just after an opening bracket: that would keep an empty element), each with the
    brackets that close it there."""
    stack: list[str] = []
    cuts: list[tuple[int, str]] = []
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack:
                break
            stack.pop()
            if not stack:
                break  # a complete value: nothing was cut
            cuts.append((i + 1, "".join(reversed(stack))))
        elif ch == "," and stack:
            cuts.append((i, "".join(reversed(stack))))
    return cuts


def validate(schema: type[T], payload: Any) -> T:
    """``schema`` instance from ``payload``, or InvalidOutput listing what is wrong."""
    try:
        return schema.model_validate(payload)
    except ValidationError as err:
        problems = [f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                    for e in err.errors()[:10]]
        raise InvalidOutput("the JSON did not match the schema: " + "; ".join(problems)) from err


def parse_reply(schema: type[T], reply: ChatReply) -> T:
    """Validated object from a reply (InvalidOutput on any problem)."""
    return validate(schema, payload_of(reply))


def feedback(reply: ChatReply, problem: InvalidOutput, spec: SchemaSpec) -> list[BaseMessage]:
    """The failed answer and a request to correct it, appended before the next attempt."""
    shown = (json.dumps(reply.tool_args, ensure_ascii=False) if reply.tool_args is not None
             else reply.content)
    return [AIMessage(shown[:4000]),
            HumanMessage(f"That output was rejected: {problem}. Answer again with only a "
                         f"JSON object valid for the {spec.name} schema, correcting these "
                         "errors. Do not add commentary.")]
