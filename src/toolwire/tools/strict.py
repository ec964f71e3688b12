"""JSON Schema → OpenAI's strict function schemas (``Tool(..., strict=True)``).

Keywords strict mode does not take but that only narrow what a value may be (``format``
beyond its list, ``minLength``/``maxLength``, ``uniqueItems``, ``minProperties``/
``maxProperties``) are written into the description, where the model still reads them
(``(format: uri)``); annotations (``$schema``, ``examples``, ``discriminator``) are left out.
Its size limits (10 levels of nesting, 1,000 enum values in all) are refused with the rule.

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

import json
from typing import Any

from .errors import ToolDefinitionError
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


#: Structured outputs "Supported schemas": the string formats strict mode takes.
FORMATS = frozenset(
    ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
)
#: Keywords strict mode does not take that only narrow a value: said in the description.
DESCRIBED = ("minLength", "maxLength", "uniqueItems", "minProperties", "maxProperties")
#: Annotations strict mode does not take: left out (no value's validity depends on them).
DROPPED = ("$schema", "$id", "$comment", "examples", "discriminator", "readOnly", "writeOnly")
#: Structured outputs "Supported schemas": "up to 10 levels of nesting", "up to 1000 enum
#: values across all enum properties".
MAX_NESTING = 10
MAX_ENUM_VALUES = 1000
SOURCE = 'OpenAI structured outputs, "Supported schemas"'
#: What says a subschema's type in strict mode (a subschema with none of them is refused).
_TYPED = frozenset(("type", "anyOf", "$ref", "enum", "const"))


def strict_parameters(
    schema: dict[str, Any], tool: str, moved: list[tuple[str, str]] | None = None
) -> dict[str, Any]:
    """``schema`` rewritten to OpenAI's strict rules (the root stays an object); ``moved``
    collects (path, keyword) of each keyword written into a description or left out."""
    _check_size(schema, tool)
    return _node(schema, "parameters", tool, schema, [] if moved is None else moved)


def _check_size(schema: dict[str, Any], tool: str) -> None:
    """Strict mode's limits: objects nested at most ``MAX_NESTING`` deep, at most
    ``MAX_ENUM_VALUES`` enum values in all."""
    enums = 0
    stack: list[tuple[Any, int, bool, frozenset[str]]] = [(schema, 0, True, frozenset())]
    followed: set[tuple[str, int]] = set()  # a reference at a depth: walked once
    while stack:  # no recursion: the shape is bounded already (schema.check_shape)
        node, depth, counts, path = stack.pop()
        if isinstance(node, list):
            stack.extend((child, depth, counts, path) for child in node)
            continue
        if not isinstance(node, dict):
            continue
        if counts and isinstance(node.get("enum"), list):
            enums += len(node["enum"])
        ref = node.get("$ref")
        local = isinstance(ref, str) and ref.startswith("#/") and ref not in path
        if local and (ref, depth) not in followed:  # nesting goes on where a reference is
            followed.add((str(ref), depth))  # used; a recursive one counts one pass of it
            stack.append((_target(schema, str(ref)), depth, False, path | {str(ref)}))
        if node.get("type") == "object":
            depth += 1
            if depth > MAX_NESTING:
                raise ToolDefinitionError(
                    f"tool {tool!r}: its parameters nest objects more than {MAX_NESTING} "
                    f"levels deep, beyond OpenAI strict mode's limit ({SOURCE}). Flatten the "
                    'schema, or pass strict=False (or strict="auto" to fall back by itself).'
                )
        stack.extend(
            (value, depth, counts, path)
            for value in node.values()
            if isinstance(value, dict | list)
        )
    if enums > MAX_ENUM_VALUES:
        raise ToolDefinitionError(
            f"tool {tool!r}: its parameters hold {enums:,} enum values, beyond OpenAI strict "
            f"mode's {MAX_ENUM_VALUES:,} ({SOURCE}). Shorten the enums (or describe the values), "
            'or pass strict=False (or strict="auto").'
        )


def _node(
    schema: dict[str, Any],
    where: str,
    tool: str,
    root: dict[str, Any],
    moved: list[tuple[str, str]],
) -> dict[str, Any]:
    for keyword in REFUSED:
        if keyword in schema:
            raise refuse(tool, where, keyword, TARGET, _ADVICE)
    schema = _unravelled(_merged(schema, where, tool), root)  # allOf first: a $ref may be in it
    schema = _described(with_default_described(schema), where, moved)
    if where != "parameters" and not _TYPED.intersection(schema):
        raise ToolDefinitionError(
            f"tool {tool!r}: OpenAI strict mode needs every subschema to say its type, and the "
            f"one at {where} does not ({json.dumps(schema, ensure_ascii=False)[:80]}). Give it "
            'a type, or pass strict=False (or strict="auto" to fall back by itself).'
        )
    out = map_subschemas(schema, where, lambda sub, path: _node(sub, path, tool, root, moved))
    if out.get("type") == "object" or "properties" in out:
        extra = out.get("additionalProperties", False)
        if extra is not False:
            raise _mapping_refused(tool, where, extra)
        properties = out.get("properties") or {}
        required = set(out.get("required") or ())
        out["properties"] = {
            name: sub if name in required else nullable(sub) for name, sub in properties.items()
        }
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out


def _mapping_refused(tool: str, where: str, extra: Any) -> ToolDefinitionError:
    """A free-form mapping (``dict[str, X]``: keys the schema does not name) has no strict
    spelling: strict mode names every key of every object. The error says the ways out."""
    said = json.dumps(extra, ensure_ascii=False)[:80]
    return refuse(
        tool,
        where,
        "additionalProperties",
        TARGET,
        f"Here it is {said}, a mapping whose keys the schema does not name (a Python "
        "dict[str, X]); "
        f"{SOURCE} says additionalProperties: false must always be set in objects, so strict "
        "mode has no spelling for it. Either name its keys (a pydantic model or TypedDict "
        'with those fields), or take a list of {"key": …, "value": …} objects (list[Entry] '
        "with fields key and value) and build the dict in the tool, or pass "
        'strict="auto" (this tool is then sent without strict mode, with a note) or '
        "strict=False.",
    )


def _target(root: dict[str, Any], ref: str) -> Any:
    """What a local reference (``#/$defs/Name``) names, or None."""
    node: Any = root
    for part in ref[2:].split("/"):
        node = (
            node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
        )
    return node


def _described(schema: dict[str, Any], where: str, moved: list[tuple[str, str]]) -> dict[str, Any]:
    """``schema`` without the keywords strict mode does not take: those that narrow a value
    said in its description, the annotations left out."""
    out = dict(schema)
    said = []
    fmt = out.get("format")
    if isinstance(fmt, str) and fmt not in FORMATS:
        said.append(f"format: {out.pop('format')}")
        moved.append((where, "format"))
    for keyword in DESCRIBED:
        if keyword in out:
            said.append(f"{keyword}: {json.dumps(out.pop(keyword))}")
            moved.append((where, keyword))
    for keyword in DROPPED:
        if keyword in out:
            del out[keyword]
            moved.append((where, keyword))
    if said:
        text = f"({'; '.join(said)})"
        out["description"] = f"{out['description']} {text}" if out.get("description") else text
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


def _with_null_value(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` whose ``enum`` or ``const`` also takes ``null`` (else the type's ``null``
    would be refused by them, and an optional parameter could not be left out)."""
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        return {**schema, "enum": [*schema["enum"], None]}
    if "const" in schema and schema["const"] is not None:
        rest = {k: v for k, v in schema.items() if k != "const"}
        return {**rest, "enum": [schema["const"], None]}
    return schema


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also takes ``null``."""
    kind = schema.get("type")
    if isinstance(kind, str) and "anyOf" not in schema:
        return _with_null_value({**schema, "type": [kind, "null"] if kind != "null" else "null"})
    if isinstance(kind, list):
        return _with_null_value(schema if "null" in kind else {**schema, "type": [*kind, "null"]})
    if isinstance(schema.get("anyOf"), list):
        variants = schema["anyOf"]
        return schema if _NULL in variants else {**schema, "anyOf": [*variants, _NULL]}
    return {"anyOf": [schema, _NULL]}
