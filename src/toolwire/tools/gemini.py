"""JSON Schema → Gemini's ``Schema`` (google-genai ``FunctionDeclaration.parameters``), or
``parameters_json_schema`` where the subset cannot say the schema.

Gemini takes a subset of OpenAPI 3.0's schema object (google-genai 3.4 ``types.Schema``; the
Gemini API reference "Schema"): upper-case ``type``, ``nullable`` instead of a ``null`` type,
``any_of``, string ``enum`` only, and no ``$ref``. So references are inlined; keywords that
only annotate or loosen (``$schema``, ``examples``, ``exclusiveMinimum``, ``uniqueItems``,
unsupported string formats) are left out; what the subset cannot say without letting other
arguments through (``not``, ``if``, ``patternProperties``, tuples, several ``allOf`` parts,
non-string enums, a mapping, recursion) raises ``BeyondSubset``, and the tool goes as JSON
Schema instead (below).
Keys are written as google-genai's field names (``min_items``), the form its strict
validation and request builder read back unchanged. Where the subset cannot say the schema
(``BeyondSubset``: a mapping, number enums, tuples, recursion, ``not``), the tool goes as JSON
Schema in ``parameters_json_schema`` (google-genai ``FunctionDeclaration``: "Describes the
parameters to the function in JSON Schema format"), as pydantic-ai sends every Gemini tool.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import ToolDefinitionError
from .schema import inline_refs, refuse

TARGET = "Gemini"
#: JSON Schema keyword -> google-genai Schema field, for keywords kept as they are.
KEPT = {
    "description": "description",
    "enum": "enum",
    "format": "format",
    "maximum": "maximum",
    "minimum": "minimum",
    "maxItems": "max_items",
    "minItems": "min_items",
    "maxLength": "max_length",
    "minLength": "min_length",
    "maxProperties": "max_properties",
    "minProperties": "min_properties",
    "pattern": "pattern",
    "required": "required",
    "title": "title",
    "default": "default",
    "nullable": "nullable",
    "propertyOrdering": "property_ordering",
}
REFUSED = (
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "prefixItems",
    "dependentSchemas",
    "dependentRequired",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)
#: Gemini API: "only 'enum' and 'date-time' are supported for STRING type"; numbers take
#: their widths. Any other format is a hint only, and is left out.
FORMATS = {
    "STRING": {"enum", "date-time"},
    "NUMBER": {"float", "double"},
    "INTEGER": {"int32", "int64"},
}
#: Vertex AI FunctionDeclaration.parameters: "Parameter names must start with a letter or an
#: underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length
#: of 64."
PARAMETER_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}")
_ADVICE = "Simplify that part of the schema for Gemini (or describe the rule in a description)."


def gemini_parameters(schema: dict[str, Any], tool: str) -> dict[str, Any] | None:
    """The ``parameters`` of a FunctionDeclaration, or None for a tool without arguments
    (Gemini rejects an OBJECT whose ``properties`` are empty)."""
    for name in schema.get("properties") or {}:
        if not PARAMETER_NAME.fullmatch(name):
            raise ToolDefinitionError(
                f"tool {tool!r}: Gemini cannot take the parameter name {name!r}; names start "
                "with a letter or '_' and hold only letters, digits and '_' (at most 64). "
                "Rename the parameter."
            )
    converted = _node(inline_refs(schema, tool), "parameters", tool)
    return converted if converted.get("properties") else None


def _node(schema: dict[str, Any], where: str, tool: str) -> dict[str, Any]:
    for keyword in REFUSED:
        if keyword in schema:
            raise refuse(tool, where, keyword, TARGET, _ADVICE)
    schema = _merged_all_of(schema, where, tool)
    schema = _const_as_enum(schema)
    extra = schema.get("additionalProperties")
    if (extra is True or isinstance(extra, dict) and extra) and not schema.get("properties"):
        raise refuse(tool, where, "additionalProperties (a mapping)", TARGET, _ADVICE)
    out: dict[str, Any] = {}
    _types(schema, out, where, tool)
    for key, field in KEPT.items():
        if schema.get(key) is not None:  # a null default says nothing the schema does not
            out[field] = schema[key]
    if "enum" in out and not all(isinstance(v, str) for v in out["enum"]):
        raise refuse(tool, where, "enum", TARGET, "Gemini enums are strings: use string values.")
    if "format" in out and out["format"] not in FORMATS.get(out.get("type", ""), ()):
        del out["format"]
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {
            name: _node(sub, f"{where}.properties.{name}", tool)
            for name, sub in schema["properties"].items()
        }
    items = schema.get("items")
    if isinstance(items, list):
        raise refuse(tool, where, "items (a tuple)", TARGET, _ADVICE)
    if isinstance(items, dict):
        out["items"] = _node(items, f"{where}.items", tool)
    if "type" not in out and "any_of" not in out:
        implied = "OBJECT" if "properties" in out else "ARRAY" if "items" in out else None
        if implied:
            out["type"] = implied
    return out


def _types(schema: dict[str, Any], out: dict[str, Any], where: str, tool: str) -> None:
    """``type`` (upper-case), ``nullable`` and ``any_of`` from type lists, anyOf and oneOf."""
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    if "null" in kinds:
        out["nullable"] = True
    kinds = [k for k in kinds if k != "null"]
    if len(kinds) == 1:
        out["type"] = kinds[0].upper()
    elif kinds:
        out["any_of"] = [{"type": k.upper()} for k in kinds]
    variants = [v for key in ("anyOf", "oneOf") for v in schema.get(key) or []]
    if not variants:
        return
    if {"type": "null"} in variants:
        out["nullable"] = True
    variants = [v for v in variants if v != {"type": "null"}]
    converted = [_node(v, f"{where}.anyOf[{i}]", tool) for i, v in enumerate(variants)]
    if len(converted) == 1:
        out.update({k: v for k, v in converted[0].items() if k not in out or k == "type"})
    else:
        out["any_of"] = converted


def _merged_all_of(schema: dict[str, Any], where: str, tool: str) -> dict[str, Any]:
    parts = schema.get("allOf")
    if parts is None:
        return schema
    if len(parts) != 1:
        raise refuse(tool, where, "allOf", TARGET, "Merge the allOf parts into one schema.")
    rest = {k: v for k, v in schema.items() if k != "allOf"}
    return {**parts[0], **rest}


def _const_as_enum(schema: dict[str, Any]) -> dict[str, Any]:
    if "const" not in schema:
        return schema
    rest = {k: v for k, v in schema.items() if k != "const"}
    return {**rest, "enum": [schema["const"]]}


def gemini_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``parameters_json_schema``: the schema as JSON Schema, for what the ``Schema`` subset
    cannot say (a mapping, number enums, tuples, recursion); only the keywords that name the
    draft or the document are left out."""
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "$comment")}
