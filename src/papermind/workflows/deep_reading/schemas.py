"""What the models are asked to return: compact schemas a small model can fill.

Every field has a default and single strings are accepted where lists are expected, so a
weak answer still parses; code, not the schema, decides what counts (grounding, limits).
Sizes (maxItems, minItems, enums) appear only in the JSON schema sent to the model: with
constrained decoding (the bundled model) they stop runaway lists; validation stays lenient
and code truncates. String lengths are left out on purpose: llama.cpp expands maxLength into
a deeply nested grammar that slows constrained decoding down.
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    create_model,
    field_validator,
    model_validator,
)

from papermind.workflows.citing import line_ids_schema


def _as_list(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    return value


def _flat(value: Any) -> str:
    """A string from whatever a weak model put where a string belongs."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "; ".join(_flat(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_flat(v)}" for k, v in value.items())
    return str(value)


def text(limit: int, description: str = "", enum: list[str] | None = None) -> Any:
    """A string field (one of ``enum`` when given); ``limit`` characters is a hint in the
    description only."""
    hint = f"{description}, at most {limit} characters" if description and limit else description
    extra: dict[str, Any] | None = {"enum": enum} if enum else None
    return Field(default="", description=hint or None, json_schema_extra=extra)


def texts(items: int, limit: int, description: str = "", least: int = 0,
          item: dict[str, Any] | None = None) -> Any:
    """A list-of-strings field whose schema says ``least`` to ``items`` strings of at most
    ``limit`` characters (each matching ``item``'s schema when given)."""
    extra: dict[str, Any] = {"maxItems": items, "items": item or {"type": "string"}}
    if least:
        extra["minItems"] = least
    hint = f"{description} (each at most {limit} characters)" if description else None
    return Field(default_factory=list, description=hint, json_schema_extra=extra)


def objects(items: int) -> Any:
    return Field(default_factory=list, json_schema_extra={"maxItems": items})


def _compact(schema: dict[str, Any]) -> None:
    """No titles (fewer prompt tokens); every property required, so decoding fills them all."""
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
        prop.pop("default", None)
    schema["required"] = list(schema.get("properties", {}))


class _Out(BaseModel):
    model_config = ConfigDict(json_schema_extra=_compact)


class _Lists(_Out):
    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        """A bare string stands for the item's first field (e.g. a method point's text)."""
        return {next(iter(cls.model_fields)): value} if isinstance(value, str) else value

    @field_validator("*", mode="before")
    @classmethod
    def _wrap_strings(cls, value: Any, info: Any) -> Any:
        field = cls.model_fields[info.field_name]
        if "list" in str(field.annotation):
            items = _as_list(value)
            return [i if isinstance(i, str) else _flat(i) for i in items] \
                if isinstance(items, list) else items
        return _flat(value) if field.annotation is str else value


LINES = "the line ids this rests on: PAGE:LINE, or a range PAGE:FIRST-LAST"
QUOTE = "optional: a few words copied from those lines"


class MethodOut(_Lists):
    point: str = text(250, "one principle of the method")
    lines: list[str] = texts(2, 12, LINES, least=1, item=line_ids_schema(several=False))
    quote: str = text(80, QUOTE)


class StepOut(_Lists):
    states: str = text(250, "what this derivation step states")
    follows_from: str = text(200, "what it follows from")
    symbols: list[str] = texts(5, 80, "'symbol: meaning'")
    lines: list[str] = texts(2, 12, LINES, least=1, item=line_ids_schema(several=False))
    quote: str = text(80, QUOTE)


class SetupOut(_Lists):
    datasets: list[str] = texts(6, 80)
    baselines: list[str] = texts(6, 80, "methods compared against")
    metrics: list[str] = texts(6, 80)
    ablations: list[str] = texts(6, 120)
    lines: list[str] = texts(2, 12, LINES, least=1, item=line_ids_schema(several=False))
    quote: str = text(80, QUOTE)


class ResultOut(_Lists):
    finding: str = text(250, "what the result shows")
    supports: str = text(200, "which claim it supports")
    lines: list[str] = texts(2, 12, LINES, least=1, item=line_ids_schema(several=False))
    quote: str = text(80, QUOTE)


def _listify(value: Any) -> Any:
    return [value] if isinstance(value, dict) else _as_list(value)


class ReaderOutput(_Out):
    """Deep reading of a paper: method, derivation steps, experiment design, results."""

    method: list[MethodOut] = objects(3)
    derivation: list[StepOut] = objects(3)
    experiments: SetupOut = Field(default_factory=SetupOut)
    results: list[ResultOut] = objects(3)

    _lists = field_validator("method", "derivation", "results", mode="before")(_listify)

    @field_validator("experiments", mode="before")
    @classmethod
    def _first_setup(cls, value: Any) -> Any:
        if isinstance(value, list):
            return value[0] if value else {}
        return {} if value is None else value


class QuestionOut(_Lists):
    question: str = text(300)
    builds_on: list[str] = texts(4, 12, "ids of the points used")
    why: str = text(200)


class QuestionerOutput(_Out):
    """Deep follow-up questions built on verified points."""

    questions: list[QuestionOut] = objects(6)

    _lists = field_validator("questions", mode="before")(_listify)


def questioner_schema(point_ids: list[str]) -> type[QuestionerOutput]:
    """QuestionerOutput whose JSON schema allows only ``point_ids`` in builds_on."""
    allowed: Any = Field(default_factory=list, json_schema_extra={
        "maxItems": 4, "items": {"type": "string", "enum": list(point_ids)}})
    item: Any = create_model("QuestionOut", __base__=QuestionOut, builds_on=(list[str], allowed))
    return create_model("QuestionerOutput", __base__=QuestionerOutput,
                        __doc__=QuestionerOutput.__doc__, questions=(list[item], objects(6)))
