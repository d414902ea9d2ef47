"""Structured output: extract JSON from a reply, validate it, and phrase the feedback.

A reply is accepted only when it validates against the requested Pydantic schema. Otherwise
the gateway sends the validation error back and asks again, within a bound; there is no
fallback to free text.
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
    """A reply that does not satisfy the schema; ``str()`` is the feedback for the model."""


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
        raise InvalidOutput(reply.tool_error)
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
    raise InvalidOutput(f"the reply was not valid JSON{cut}: {text[:200]!r}")


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
