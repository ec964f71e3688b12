"""JSON Schema → what the ollama client sends for a tool's parameters.

ollama 0.6.3 ``Tool.Function.Parameters`` keeps ``type``, ``required`` and ``properties``,
and each property only ``type``, ``items``, ``description`` and ``enum``: the client drops
every other key before the request leaves (``Tool.model_validate`` ignores them). So
references are inlined, an optional ``anyOf [X, null]`` becomes ``"type": [X, "null"]``, and
whatever else a property says (bounds, nested properties, formats) is written into its
description as compact JSON, where the model still reads it.
"""

from __future__ import annotations

import json
from typing import Any

from .schema import inline_refs

PROPERTY_KEYS = ("type", "items", "description", "enum")


def ollama_parameters(schema: dict[str, Any], tool: str) -> dict[str, Any]:
    """``parameters`` as the ollama client would send them, nothing silently dropped."""
    inlined = inline_refs(schema, tool)
    out: dict[str, Any] = {"type": "object"}
    if inlined.get("required"):
        out["required"] = list(inlined["required"])
    properties = inlined.get("properties") or {}
    out["properties"] = {name: _property(sub) for name, sub in properties.items()}
    return out


def _property(schema: dict[str, Any]) -> dict[str, Any]:
    schema = _flattened(schema)
    kept = {key: schema[key] for key in PROPERTY_KEYS if key in schema}
    rest = {key: value for key, value in schema.items() if key not in PROPERTY_KEYS}
    rest.pop("title", None)
    if rest:
        said = "Schema: " + json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
        described = kept.get("description")
        kept["description"] = f"{described} {said}" if described else said
    return kept


def _flattened(schema: dict[str, Any]) -> dict[str, Any]:
    """An optional value (``anyOf [X, null]``, as pydantic writes ``X | None``) as X with
    ``null`` among its types; a null default is dropped (it says nothing more)."""
    if schema.get("default", 0) is None:
        schema = {k: v for k, v in schema.items() if k != "default"}
    variants = schema.get("anyOf")
    if not isinstance(variants, list) or "type" in schema or {"type": "null"} not in variants:
        return schema
    others = [v for v in variants if v != {"type": "null"}]
    if len(others) != 1 or not isinstance(others[0].get("type"), str):
        return schema
    rest = {k: v for k, v in schema.items() if k != "anyOf"}
    return {**others[0], **rest, "type": [others[0]["type"], "null"]}
