"""JSON Schema → OpenAI's strict function schemas (``Tool(..., strict=True)``).

OpenAI structured outputs ("Supported schemas"): every object sets ``additionalProperties:
false`` and lists every property in ``required``; a property that may be left out is
instead made nullable (``"type": ["string", "null"]``, or ``anyOf`` with ``{"type":
"null"}``), so the model sends ``null`` for it. ``$defs`` and recursive ``$ref`` are
allowed; a ``$ref`` with keywords beside it is not (it is inlined, as the openai SDK's own
``to_strict_json_schema`` does). ``oneOf`` becomes ``anyOf``, a one-part ``allOf`` is merged,
and ``default`` moves into the description. Composition keywords strict mode lacks are
refused rather than dropped, as is a free-form mapping (``additionalProperties`` other than
false), which strict mode cannot express.
"""

from __future__ import annotations

from typing import Any

from .schema import map_subschemas, refuse, with_default_described

TARGET = "OpenAI strict mode"
REFUSED = (
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
    "dependentRequired",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
)
_ADVICE = "Simplify that part of the schema, or pass strict=False for this tool."
_NULL = {"type": "null"}


def strict_parameters(schema: dict[str, Any], tool: str) -> dict[str, Any]:
    """``schema`` rewritten to OpenAI's strict rules (the root stays an object)."""
    return _node(schema, "parameters", tool, schema)


def _node(schema: dict[str, Any], where: str, tool: str, root: dict[str, Any]) -> dict[str, Any]:
    for keyword in REFUSED:
        if keyword in schema:
            raise refuse(tool, where, keyword, TARGET, _ADVICE)
    schema = _unravelled(schema, root)
    schema = with_default_described(_merged(schema, where, tool))
    out = map_subschemas(schema, where, lambda sub, path: _node(sub, path, tool, root))
    if out.get("type") == "object" or "properties" in out:
        extra = out.get("additionalProperties", False)
        if extra is not False:
            raise refuse(tool, where, "additionalProperties", TARGET, _ADVICE)
        properties = out.get("properties") or {}
        required = set(out.get("required") or ())
        out["properties"] = {
            name: sub if name in required else nullable(sub) for name, sub in properties.items()
        }
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out


def _unravelled(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """A ``$ref`` with keywords beside it, replaced by its target merged with them."""
    ref = schema.get("$ref")
    if not isinstance(ref, str) or len(schema) == 1 or not ref.startswith("#/"):
        return schema
    target: Any = root
    for part in ref[2:].split("/"):
        target = target.get(part.replace("~1", "/").replace("~0", "~"), {})
    rest = {k: v for k, v in schema.items() if k != "$ref"}
    return {**target, **rest}


def _merged(schema: dict[str, Any], where: str, tool: str) -> dict[str, Any]:
    """``oneOf`` as ``anyOf``; a one-part ``allOf`` merged into its schema."""
    out = dict(schema)
    if "oneOf" in out:
        out["anyOf"] = [*out.pop("anyOf", []), *out.pop("oneOf")]
    parts = out.pop("allOf", None)
    if parts is None:
        return out
    if len(parts) != 1:
        raise refuse(tool, where, "allOf", TARGET, "Merge the allOf parts into one schema.")
    return {**parts[0], **out}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also takes ``null``."""
    kind = schema.get("type")
    if isinstance(kind, str) and "anyOf" not in schema:
        out = {**schema, "type": [kind, "null"] if kind != "null" else "null"}
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if isinstance(schema.get("anyOf"), list):
        variants = schema["anyOf"]
        return schema if _NULL in variants else {**schema, "anyOf": [*variants, _NULL]}
    return {"anyOf": [schema, _NULL]}
