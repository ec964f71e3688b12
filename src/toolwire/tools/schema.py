"""JSON Schema for tool arguments: one walk over its subschemas, and ``$ref`` inlining.

A tool's ``parameters`` is JSON Schema (draft 2020-12, as pydantic and MCP servers write it).
Each target takes a different subset; the dialect modules (``gemini``, ``strict``, ``ollama``)
rewrite a schema with the helpers here. Keywords are told by where they sit, never by name
alone: a property called ``title`` or ``default`` is a property, not a keyword.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ToolDefinitionError

#: Keywords whose value is a mapping of name -> subschema.
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
#: Keywords whose value is a list of subschemas.
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
#: Keywords whose value is one subschema (``items`` may be a list in older drafts).
SCHEMA_ONE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)
_DEFS = ("$defs", "definitions")
#: The deepest a tool's schema may nest (objects and arrays inside one another): real tools
#: nest a few levels; every rewrite here walks the schema recursively.
MAX_DEPTH = 64
#: The most objects and arrays a tool's schema may hold.
MAX_NODES = 100_000
#: The most subschemas inlining ``$ref`` may make: each reference is copied where it is used,
#: so definitions that refer to one another twice a level double at each level.
MAX_INLINED = 10_000

Rewrite = Callable[[dict[str, Any], str], dict[str, Any]]


def check_shape(schema: Any, tool: str) -> None:
    """A ToolDefinitionError when ``schema`` nests deeper than ``MAX_DEPTH`` or holds more
    than ``MAX_NODES`` objects and arrays (walked without recursion, so a hostile schema
    costs a bounded walk, never a RecursionError)."""
    stack: list[tuple[Any, int]] = [(schema, 1)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            raise ToolDefinitionError(
                f"tool {tool!r}: its parameters nest more than {MAX_DEPTH} levels deep; "
                "toolwire refuses such a schema (flatten it, or type the deep part as a plain "
                "object)"
            )
        if nodes > MAX_NODES:
            raise ToolDefinitionError(
                f"tool {tool!r}: its parameters hold more than {MAX_NODES:,} objects and "
                "arrays; toolwire refuses such a schema"
            )
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def map_subschemas(schema: dict[str, Any], where: str, rewrite: Rewrite) -> dict[str, Any]:
    """A copy of ``schema`` with ``rewrite(subschema, path)`` applied to each direct subschema
    (booleans, the schemas ``true`` and ``false``, are left as they are)."""
    out = dict(schema)
    for key in SCHEMA_MAPS:
        if isinstance(schema.get(key), dict):
            out[key] = {
                name: _apply(sub, f"{where}.{key}.{name}", rewrite)
                for name, sub in schema[key].items()
            }
    for key in SCHEMA_LISTS:
        if isinstance(schema.get(key), list):
            out[key] = [
                _apply(sub, f"{where}.{key}[{i}]", rewrite) for i, sub in enumerate(schema[key])
            ]
    for key in SCHEMA_ONE:
        value = schema.get(key)
        if isinstance(value, list):
            out[key] = [_apply(sub, f"{where}.{key}[{i}]", rewrite) for i, sub in enumerate(value)]
        elif key in schema:
            out[key] = _apply(value, f"{where}.{key}", rewrite)
    return out


def _apply(sub: Any, where: str, rewrite: Rewrite) -> Any:
    return rewrite(sub, where) if isinstance(sub, dict) else sub


def inline_refs(schema: dict[str, Any], tool: str) -> dict[str, Any]:
    """``schema`` with every local ``$ref`` replaced by what it points to, and no ``$defs``.

    Keywords beside a ``$ref`` are kept and win over the referenced schema's (as pydantic
    writes ``{"$ref": …, "description": …}``). A recursive reference cannot be inlined and a
    reference outside the schema cannot be followed: both are a ToolDefinitionError.
    """
    root = schema
    made = 0

    def resolve(node: dict[str, Any], where: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
        nonlocal made
        made += 1
        if made > MAX_INLINED:
            raise BeyondSubset(
                f"tool {tool!r}: inlining its $refs (this target takes none) makes more than "
                f"{MAX_INLINED:,} subschemas, as each reference is copied where it is used "
                f"(at {where}); define the repeated parts once as plain objects, or choose a "
                "target that takes $ref",
                f"$ref (inlined, more than {MAX_INLINED:,} subschemas)",
                where,
            )
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref in seen:
                raise BeyondSubset(
                    f"tool {tool!r}: the schema refers to itself ({' -> '.join((*seen, ref))} "
                    f"at {where}); this target takes no recursive schema. Give the recursive "
                    "part a fixed depth, or type it as a plain object.",
                    "$ref (recursive)",
                    where,
                )
            target = _pointer(root, ref, tool, where)
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return resolve(merged, where, (*seen, ref))
        inner = map_subschemas(node, where, lambda sub, path: resolve(sub, path, seen))
        for key in _DEFS:
            inner.pop(key, None)
        return inner

    return resolve(schema, "parameters")


def _pointer(root: dict[str, Any], ref: str, tool: str, where: str) -> dict[str, Any]:
    """The subschema a local JSON pointer (``#/$defs/Name``) names."""
    node: Any = root
    if ref.startswith("#"):
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            key = part.replace("~1", "/").replace("~0", "~")
            node = node.get(key) if isinstance(node, dict) else None
    else:
        node = None
    if not isinstance(node, dict):
        raise ToolDefinitionError(
            f"tool {tool!r}: $ref {ref!r} at {where} names nothing in the schema; only local "
            "references (#/$defs/…) can be followed. Inline the referenced schema."
        )
    return node


def drop_titles(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without ``title`` keywords (pydantic titles every property after its name)."""

    def strip(node: dict[str, Any], where: str) -> dict[str, Any]:
        out = map_subschemas(node, where, strip)
        out.pop("title", None)
        return out

    return strip(schema, "parameters")


def with_default_described(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` without ``default``, its value said in the description instead."""
    if "default" not in node:
        return node
    out = dict(node)
    default = out.pop("default")
    if default is not None:
        said = f"Default: {_json(default)}."
        out["description"] = f"{out['description']} {said}" if out.get("description") else said
    return out


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, sort_keys=True)


class BeyondSubset(ToolDefinitionError):
    """A schema a target's subset of JSON Schema cannot say (a keyword, a recursive
    reference): where the target also takes full JSON Schema (Gemini's
    ``parameters_json_schema``), the tool goes that way instead. ``keyword`` and ``where``
    say what and where."""

    def __init__(self, message: str, keyword: str = "", where: str = "") -> None:
        super().__init__(message)
        self.keyword, self.where = keyword, where


def refuse(tool: str, where: str, keyword: str, target: str, advice: str) -> ToolDefinitionError:
    """The error for a keyword a target cannot take and toolwire cannot drop without changing
    what the schema means."""
    return BeyondSubset(
        f"tool {tool!r}: {target} cannot take the JSON Schema keyword {keyword!r} (at {where}), "
        f"and leaving it out would change what the arguments may be. {advice}",
        keyword,
        where,
    )
