"""A minimal instance that validates against a JSON schema (for mock replies)."""

from __future__ import annotations

from typing import Any


def example_for(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """Smallest plausible value satisfying ``schema`` (objects fill every property)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return example_for(defs[schema["$ref"].split("/")[-1]], defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return example_for(options[0], defs)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    return _by_type(kind, schema, defs)


def _by_type(kind: str, schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    if kind == "object":
        props = schema.get("properties", {})
        return {name: example_for(sub, defs) for name, sub in props.items()}
    if kind == "array":
        item = example_for(schema.get("items", {"type": "string"}), defs)
        return [item] * max(1, int(schema.get("minItems", 1)))
    if kind == "string":
        return "example" + "x" * max(0, int(schema.get("minLength", 0)) - 7)
    if kind == "integer":
        return int(schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1))
    if kind == "number":
        return float(schema.get("minimum", 0.5))
    if kind == "boolean":
        return True
    return None
