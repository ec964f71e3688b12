"""A tool's schema made into what its target takes: repaired where that loses nothing, with
a note for each change, and refused with a precise error where it cannot be (issue 31).

Most tool schemas an agent meets are written by someone else (MCP servers, generated from
zod or pydantic), and each provider takes a different subset of JSON Schema. ``prepare``
runs one pipeline for every target, in this order, driven by the target's ``SchemaRules``
(a fact of the table: ``Capabilities.tool_schema``):

1. the shape is bounded (plan depth and size: ``schema.check_shape``);
2. the root becomes one object: a root ``$ref`` is followed; ``anyOf``/``oneOf`` branches
   that are objects are merged
   into one (the union of their properties, the properties every branch requires required,
   the alternatives said in the description); ``allOf`` parts are merged; a root with
   properties and no type gets ``type: object``;
3. arrays: ``prefixItems`` (a tuple; draft 7's ``items`` list too) becomes ``items`` (one schema, or the ``anyOf`` of the
   distinct ones) with ``minItems``/``maxItems``; an array without ``items`` gets ``{}``
   where the target needs one;
4. parameter names (the root's properties, which providers check) a target refuses are
   renamed, stably: ``renamed_back`` maps a call's arguments back (``tw.decode(...,
   tools=)`` runs it);
5. keywords a target takes only at some places are moved: at Nova's root only ``type``,
   ``properties`` and ``required`` stay (references are inlined, annotations dropped, other
   keywords said in the tool's description).

Every change is a ``ToolNote`` (``Request.tool_notes``): the tool, the JSON path, what was
done, and the rule with its source.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Hashable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .errors import ToolDefinitionError
from .schema import _pointer, check_shape, inline_refs, map_subschemas
from .tool import Tool

if TYPE_CHECKING:
    from ..capability import Capabilities


@dataclass(frozen=True)
class SchemaRules:
    """What one family of targets takes in a tool's parameters, with the source of each."""

    name: str
    #: Property names the target takes (None: any), and where that rule is written.
    property_names: re.Pattern[str] | None = None
    property_names_source: str = ""
    #: The only keywords the root may hold (None: any), and the source.
    root_keywords: frozenset[str] | None = None
    root_keywords_source: str = ""
    #: Every array must say its ``items``.
    array_items: bool = False
    array_items_source: str = ""
    #: The root may hold no ``anyOf``/``oneOf``/``allOf`` (all targets: the arguments are one
    #: object of named parameters), and the source.
    root_source: str = ""
    #: Where the target's subset cannot say a schema, it goes as JSON Schema (Gemini's
    #: ``parameters_json_schema``): the source, noted with the reason ("" where not).
    json_schema_source: str = ""
    #: ``required`` may name only declared properties, and the source.
    required_declared: bool = False
    required_declared_source: str = ""
    #: The target has OpenAI's strict mode (``Tool(strict=...)``): its rules are checked here
    #: (tools.strict), so that ``strict="auto"`` falls back with a note.
    strict_mode: bool = False
    #: The most tools one request may define (None: no documented limit), and the source.
    max_tools: int | None = None
    max_tools_source: str = ""
    #: Where a call is forced (tool_choice "required" or a tool's name), a tool without
    #: parameters still declares them, as JSON Schema (Gemini): the source ("" where not).
    forced_parameters_source: str = ""


@dataclass(frozen=True)
class ToolNote:
    """One change toolwire made to a tool's schema for its target, as data."""

    tool: str
    path: str
    change: str
    rule: str

    def __str__(self) -> str:
        return f"tool {self.tool!r} at {self.path}: {self.change} ({self.rule})"


#: How a tool's parameters go: as ``parameters`` (Gemini: in its ``Schema`` subset), as
#: Gemini's ``parameters_json_schema``, or not at all (Gemini: a tool without arguments).
Form = Literal["parameters", "json_schema", "none"]


@dataclass
class Prepared:
    """A tool's parameters as its target takes them, the notes of what changed, and the
    renamed property names (``Renames``)."""

    parameters: dict[str, Any]
    notes: list[ToolNote] = field(default_factory=list)
    renames: Renames | None = None
    #: Text added to the tool's description (keywords the target takes nowhere else).
    described: str = ""
    #: The parameters as the dialect sends them, where the target's rules made them so
    #: (Gemini's ``Schema`` subset or its JSON Schema; None: ``parameters`` as they are), and
    #: how they go (``PreparedTool.form``).
    sent: dict[str, Any] | None = None
    form: Form = "parameters"


@dataclass(frozen=True)
class Renames:
    """Parameter names renamed for a target: the name sent -> the name declared (read-only:
    a kept preparation shares it)."""

    names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __bool__(self) -> bool:
        return bool(self.names)


def prepare(parameters: dict[str, Any], tool: str, rules: SchemaRules) -> Prepared:
    """``parameters`` repaired for ``rules``' targets (the module docstring), or a
    ToolDefinitionError naming the tool, the path and the rule where it cannot be."""
    check_shape(parameters, tool)
    prepared = Prepared(dict(parameters))
    alternatives: list[set[str]] = []  # a merged root anyOf's sets of required names
    prepared.parameters = _root_object(
        prepared.parameters, tool, rules, prepared.notes, alternatives
    )
    prepared.parameters = _arrays(prepared.parameters, "parameters", tool, rules, prepared.notes)
    if rules.property_names is not None:
        renamed: dict[str, str] = {}
        prepared.parameters = _renamed(
            prepared.parameters, "parameters", tool, rules, prepared.notes, renamed
        )
        prepared.renames = Renames(MappingProxyType(renamed)) if renamed else None
    if alternatives:  # said with the names the target gets
        sent = {old: new for new, old in prepared.renames.names.items()} if prepared.renames else {}
        prepared.parameters = _with_alternatives(prepared.parameters, alternatives, sent)
    if rules.required_declared:
        prepared.parameters = _required_declared(
            prepared.parameters, "parameters", tool, rules, prepared.notes
        )
    if rules.root_keywords is not None:
        _root_keywords(prepared, tool, rules)
    if rules.json_schema_source:
        _beyond_subset(prepared, tool, rules)
    return prepared


def _beyond_subset(prepared: Prepared, tool: str, rules: SchemaRules) -> None:
    """The parameters in Gemini's ``Schema`` subset (``Prepared.sent``), or as JSON Schema
    with a note where the subset cannot say them."""
    from .gemini import gemini_json_schema, gemini_parameters
    from .schema import BeyondSubset

    try:
        prepared.sent = gemini_parameters(prepared.parameters, tool)
        prepared.form = "parameters"
        if prepared.sent is None:  # kept as JSON Schema for a forced call (``forced``)
            prepared.sent = gemini_json_schema(prepared.parameters)
            prepared.form = "none"
    except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
        raise _malformed(tool, exc) from exc
    except BeyondSubset as exc:
        prepared.sent = gemini_json_schema(prepared.parameters)
        prepared.form = "json_schema"
        prepared.notes.append(
            ToolNote(
                tool,
                exc.where or "parameters",
                f"sent as JSON Schema (parameters_json_schema): the Schema subset cannot say "
                f"{exc.keyword}",
                rules.json_schema_source,
            )
        )


def _required_declared(
    schema: dict[str, Any], where: str, tool: str, rules: SchemaRules, notes: list[ToolNote]
) -> dict[str, Any]:
    """``required`` without the names no property declares (MCP servers publish branches that
    only require a name declared elsewhere); each object inside, too."""
    out = map_subschemas(
        schema, where, lambda sub, path: _required_declared(sub, path, tool, rules, notes)
    )
    required, properties = out.get("required"), out.get("properties")
    if isinstance(required, list):
        declared = properties if isinstance(properties, dict) else {}
        missing = [name for name in required if name not in declared]
        if missing:
            out["required"] = [name for name in required if name in declared]
            if not out["required"]:
                del out["required"]
            notes.append(
                ToolNote(
                    tool,
                    where,
                    f"required names {', '.join(map(repr, missing))}, which no property "
                    "declares: left out of required",
                    rules.required_declared_source,
                )
            )
    return out


def check_count(count: int, rules: SchemaRules) -> None:
    """A ToolDefinitionError where the request defines more tools than the target takes."""
    if rules.max_tools is not None and count > rules.max_tools:
        raise ToolDefinitionError(
            f"{count} tools are defined, and this target takes at most {rules.max_tools} in "
            f"one request ({rules.max_tools_source}). Send only the tools this step needs "
            "(e.g. choose them per step), or split them across agents."
        )


# --- 2. one object at the root ---------------------------------------------------------------


def _root_object(
    schema: dict[str, Any],
    tool: str,
    rules: SchemaRules,
    notes: list[ToolNote],
    alternatives: list[set[str]],
) -> dict[str, Any]:
    rule = rules.root_source or "the arguments are one object of named parameters"
    if isinstance(schema.get("$ref"), str) and "type" not in schema:  # zod's named root
        target = _pointer(schema, schema["$ref"], tool, "parameters")
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**target, **rest}
        notes.append(ToolNote(tool, "parameters", "the root $ref followed", rule))
    if isinstance(schema.get("allOf"), list):
        schema = _all_of_merged(schema, tool)
        notes.append(ToolNote(tool, "parameters", "merged the allOf parts into one object", rule))
    for keyword in ("anyOf", "oneOf"):
        if isinstance(schema.get(keyword), list):
            schema = _branches_merged(schema, keyword, tool, alternatives)
            notes.append(
                ToolNote(
                    tool,
                    "parameters",
                    f"merged the {keyword} branches into one object (their properties, those "
                    "every branch requires required; the alternatives in the description)",
                    rule,
                )
            )
    if schema.get("type") is None and ("properties" in schema or not schema):
        schema = {"type": "object", **schema}
        notes.append(ToolNote(tool, "parameters", "added type: object", rule))
    if schema.get("type") != "object":
        raise ToolDefinitionError(
            f"tool {tool!r}: its parameters are of type {schema.get('type')!r}, not an object "
            f"of named parameters ({rule}). Wrap the value in an object: "
            '{"type": "object", "properties": {"value": …}, "required": ["value"]}.'
        )
    return schema


def _objects(
    branches: list[Any], root: dict[str, Any], tool: str, keyword: str
) -> list[dict[str, Any]]:
    """The branches, each an object schema (a local ``$ref`` followed), or an error."""
    found = []
    for index, branch in enumerate(branches):
        if isinstance(branch, dict) and isinstance(branch.get("$ref"), str):
            branch = inline_refs({**branch, "$defs": root.get("$defs", {})}, tool)
        if not isinstance(branch, dict) or branch.get("type", "object") != "object":
            raise ToolDefinitionError(
                f"tool {tool!r}: parameters.{keyword}[{index}] is not an object, so the "
                "arguments could not be one object of named parameters. Give the tool one "
                "object schema (or split it into one tool per alternative)."
            )
        found.append(branch)
    return found


def _branches_merged(
    schema: dict[str, Any], keyword: str, tool: str, alternatives: list[set[str]]
) -> dict[str, Any]:
    """The branches as one object: their properties (a property two declare differently as
    the ``anyOf`` of both), required only what every branch requires; each branch's required
    names go to ``alternatives``, said in the description once names are final."""
    branches = _objects(schema[keyword], schema, tool, keyword)
    rest = {k: v for k, v in schema.items() if k != keyword}
    properties: dict[str, Any] = dict(rest.get("properties") or {})
    for branch in branches:
        for name, sub in (branch.get("properties") or {}).items():
            if name in properties and properties[name] != sub:
                known = (
                    properties[name].get("anyOf") if isinstance(properties[name], dict) else None
                )
                variants = known if known and len(properties[name]) == 1 else [properties[name]]
                properties[name] = {"anyOf": [*variants, sub] if sub not in variants else variants}
            else:
                properties[name] = sub
    requires = [set(b.get("required") or ()) for b in branches]
    required = list(rest.get("required") or ())
    common = set.intersection(*requires) if requires else set()
    required += [name for name in properties if name in common and name not in required]
    alternatives += requires
    merged = {**rest, "type": "object", "properties": properties}
    if required:
        merged["required"] = required
    else:
        merged.pop("required", None)
    return merged


def _with_alternatives(
    schema: dict[str, Any], alternatives: list[set[str]], sent: dict[str, str]
) -> dict[str, Any]:
    """``schema`` whose description says the merged branches' sets of required names, each
    name as the target gets it (``sent``: declared -> sent, where renamed)."""
    said = "; ".join(
        f"({i + 1}) " + (", ".join(sorted(sent.get(n, n) for n in r)) or "no required parameters")
        for i, r in enumerate(alternatives)
    )
    text = f"Takes one of these sets of required parameters: {said}."
    described = schema.get("description")
    return {**schema, "description": f"{described} {text}" if described else text}


def _all_of_merged(schema: dict[str, Any], tool: str) -> dict[str, Any]:
    """The root's ``allOf`` parts as one object: a property two parts declare differently
    keeps both (its own ``allOf``), required names add up, and a part's other rules (an
    ``anyOf`` of required sets, …) are said in the description rather than lost."""
    parts = _objects(schema["allOf"], schema, tool, "allOf")
    rest = {k: v for k, v in schema.items() if k != "allOf"}
    properties: dict[str, Any] = dict(rest.get("properties") or {})
    required = list(rest.get("required") or ())
    said = []
    for part in parts:
        for name, sub in (part.get("properties") or {}).items():
            known = properties.get(name)
            properties[name] = sub if known is None or known == sub else {"allOf": [known, sub]}
        required += [n for n in part.get("required") or () if n not in required]
        other = {k: v for k, v in part.items() if k not in _OBJECT_KEYWORDS}
        if other:
            said.append(
                json.dumps(other, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            )
    merged = {**rest, "type": "object", "properties": properties}
    if required:
        merged["required"] = required
    if said:
        text = f"Also: {'; '.join(said)}."
        merged["description"] = (
            f"{merged['description']} {text}" if merged.get("description") else text
        )
    return merged


#: What an object part of ``allOf`` holds that merging carries over as it is.
_OBJECT_KEYWORDS = ("type", "properties", "required", "title", "description", "$schema")


# --- 3. arrays --------------------------------------------------------------------------------


def _arrays(
    schema: dict[str, Any], where: str, tool: str, rules: SchemaRules, notes: list[ToolNote]
) -> dict[str, Any]:
    out = map_subschemas(schema, where, lambda sub, path: _arrays(sub, path, tool, rules, notes))
    if isinstance(out.get("items"), list):  # draft 7's tuple: items as a list
        tuple_schemas = out["items"]
        out = {k: v for k, v in out.items() if k not in ("items", "additionalItems")}
        out["prefixItems"] = tuple_schemas
    tuple_items = out.get("prefixItems")
    if isinstance(tuple_items, list) and not tuple_items and "items" not in out:
        out = {k: v for k, v in out.items() if k != "prefixItems"}
        out["maxItems"] = 0  # an empty tuple: an empty list
        tuple_items = None
    if isinstance(tuple_items, list) and "items" not in out:
        kinds = [s for i, s in enumerate(tuple_items) if s not in tuple_items[:i]]
        out = {k: v for k, v in out.items() if k != "prefixItems"}
        out["items"] = kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
        out.setdefault("minItems", len(tuple_items))
        out.setdefault("maxItems", len(tuple_items))
        order = ", ".join(json.dumps(s, sort_keys=True)[:80] for s in tuple_items)
        said = f"A list of exactly {len(tuple_items)} items, in this order: {order}."
        out["description"] = f"{out['description']} {said}" if out.get("description") else said
        notes.append(
            ToolNote(
                tool,
                where,
                "a tuple (prefixItems) sent as items with minItems/maxItems, the order in the "
                "description",
                "prefixItems is JSON Schema 2020-12; providers read items",
            )
        )
    if rules.array_items and _is_array(out) and "items" not in out:
        out["items"] = {}
        notes.append(
            ToolNote(
                tool,
                where,
                "an array without items got items: {} (any value)",
                rules.array_items_source,
            )
        )
    return out


def _is_array(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "array" or isinstance(kind, list) and "array" in kind


# --- 4. property names -----------------------------------------------------------------------


def _renamed(
    schema: dict[str, Any],
    where: str,
    tool: str,
    rules: SchemaRules,
    notes: list[ToolNote],
    renames: dict[str, str],
) -> dict[str, Any]:
    """``schema`` with each parameter name ``rules`` refuse renamed (the root's properties:
    the names the providers check), and the renames recorded in ``renames`` (sent ->
    declared)."""
    out = dict(schema)
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return out
    pattern = rules.property_names
    assert pattern is not None
    taken = {name for name in properties if pattern.fullmatch(name)}
    new_properties: dict[str, Any] = {}
    for name, sub in properties.items():
        new = name
        if not pattern.fullmatch(name):
            new = _free_name(name, taken, pattern)
            taken.add(new)
            renames[new] = name
            notes.append(
                ToolNote(
                    tool,
                    f"{where}.properties",
                    f"parameter {name!r} sent as {new!r} (tw.decode(..., tools=) maps the "
                    "arguments back)",
                    rules.property_names_source,
                )
            )
        new_properties[new] = sub
    out["properties"] = new_properties
    if isinstance(schema.get("required"), list):
        back = {old: new for new, old in renames.items()}
        out["required"] = [back.get(n, n) for n in schema["required"]]
    return out


def _free_name(name: str, taken: set[str], pattern: re.Pattern[str]) -> str:
    """``name`` with each character outside ``[a-zA-Z0-9_]`` (what every rule takes) as ``_``,
    ``_`` first where it starts with a digit, at most 60 characters, made unique among
    ``taken`` by a numbered suffix."""
    base = re.sub(r"[^a-zA-Z0-9_]", "_", name)[:60] or "_"
    if base[0].isdigit():
        base = f"_{base}"[:60]
    new, n = base, 1
    while new in taken or not pattern.fullmatch(new):
        n += 1
        new = f"{base}_{n}"
    return new


def renamed_back(arguments: Any, renames: Renames | None) -> Any:
    """A call's arguments with each renamed parameter back to the name its schema declared."""
    if renames is None or not isinstance(arguments, dict):
        return arguments
    return {renames.names.get(key, key): value for key, value in arguments.items()}


# --- 5. the root's keywords --------------------------------------------------------------------


#: Keywords that only annotate a schema: dropping them changes no argument's validity.
ANNOTATIONS = ("$schema", "$id", "$comment", "title", "examples", "default")


def _root_keywords(prepared: Prepared, tool: str, rules: SchemaRules) -> None:
    allowed = rules.root_keywords
    assert allowed is not None
    schema = prepared.parameters
    if any(key in schema for key in ("$defs", "definitions")):
        schema = inline_refs(schema, tool)
        prepared.notes.append(
            ToolNote(
                tool, "parameters", "references inlined ($defs removed)", rules.root_keywords_source
            )
        )
    kept = {k: v for k, v in schema.items() if k in allowed}
    dropped = {k: v for k, v in schema.items() if k not in allowed}
    said = {k: v for k, v in dropped.items() if k not in ANNOTATIONS}
    if said:
        described = [str(said.pop("description"))] if "description" in said else []
        if said:
            rules_said = json.dumps(said, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            described.append(f"Parameter rules: {rules_said}")
        prepared.described = " ".join(described)
    if dropped:
        where = " (said in the tool's description)" if prepared.described else " (annotations only)"
        prepared.notes.append(
            ToolNote(
                tool,
                "parameters",
                f"{', '.join(sorted(dropped))} left the root{where}",
                rules.root_keywords_source,
            )
        )
    prepared.parameters = kept


@dataclass(frozen=True)
class PreparedTool:
    """A tool as its target takes it, made once per tool content and rules (a memo keeps it,
    ``prepared_tools``): the tool (its description with what the repair added, ``strict``
    settled to a bool), the notes of what changed, the renamed parameters, and the
    parameters exactly as its dialect sends them (strict mode's, Gemini's), so that spelling
    only spells. Every part is read-only or read as a copy: a caller who edits what a request
    holds never edits what the next request is given."""

    tool: Tool
    notes: tuple[ToolNote, ...] = ()
    renames: Renames | None = None
    form: Form = "parameters"
    #: The parameters sent, where they differ from ``tool.parameters`` (read with ``sent``).
    _sent: dict[str, Any] | None = field(default=None, repr=False)
    #: Some text of it holds a lone surrogate (the spelling is scrubbed: plan.ids.wire_text).
    scrub: bool = False
    #: What it is kept by (tool digest, rules), where it is kept (``prepared_tools``).
    key: Hashable = None

    @property
    def name(self) -> str:
        return self.tool.name

    @property
    def description(self) -> str:
        return self.tool.description

    @property
    def strict(self) -> bool:
        return self.tool.strict is True

    @property
    def parameters(self) -> dict[str, Any]:
        """``sent()``: what a dialect written for a ``Tool`` reads."""
        return self.sent()

    def sent(self) -> dict[str, Any]:
        """A fresh copy of the parameters as sent ({} where ``form`` is "none": the JSON
        Schema kept for a forced call is sent only then, ``forced``)."""
        if self.form == "none":
            return {}
        if self._sent is None:
            return self.tool.parameters  # a copy already (Tool.parameters)
        copied: dict[str, Any] = deepcopy(self._sent)
        return copied


class KeptTools(Protocol):
    """Where prepared tools are kept between requests (``memo.Kept``: ``MEMO.tools``)."""

    def get(self, key: Hashable) -> PreparedTool | None: ...

    def keep(self, key: Hashable, value: PreparedTool, chars: int) -> None: ...


def prepared_tools(
    tools: Sequence[Tool], caps: Capabilities, kept: KeptTools | None = None
) -> tuple[PreparedTool, ...]:
    """Each tool as ``caps``' target takes it (``prepare_tool`` with its ``tool_schema``
    rules). ``kept``: where each tool's preparation is kept by its content digest and the
    rules (the only capability fact preparing reads), so re-encoding with the same tools
    prepares none again; a tool that cannot be prepared raises each time."""
    rules = rules_of(caps)
    check_count(len(tools), rules)
    prepared: list[PreparedTool] = []
    for tool in tools:
        if not isinstance(tool, Tool):
            raise ToolDefinitionError(
                f"tools holds a {type(tool).__name__}; each must be a toolwire Tool "
                "(Tool(name, description, parameters), Tool.from_function, tools_from_mcp)."
            )
        if kept is None:
            prepared.append(prepare_tool(tool, rules))
            continue
        key = (tool_digest(tool), rules)
        found = kept.get(key)
        if found is None:
            found = replace(prepare_tool(tool, rules), key=key)
            kept.keep(key, found, _chars(found))
        prepared.append(found)
    return tuple(prepared)


def forced(
    prepared: tuple[PreparedTool, ...], tool_choice: str | None, caps: Capabilities
) -> tuple[PreparedTool, ...]:
    """The prepared tools as a request whose ``tool_choice`` forces a call sends them: where
    the target's rules say so (``SchemaRules.forced_parameters_source``: Gemini's mode ANY), a
    tool without parameters declares its empty object as JSON Schema, with a note."""
    rules = rules_of(caps)
    if not rules.forced_parameters_source or tool_choice in (None, "auto", "none"):
        return prepared
    return tuple(
        replace(
            tool,
            form="json_schema",
            notes=(
                *tool.notes,
                ToolNote(
                    tool.name,
                    "parameters",
                    "a tool without parameters declares them as JSON Schema "
                    "(parameters_json_schema): tool_choice forces a call",
                    rules.forced_parameters_source,
                ),
            ),
        )
        if tool.form == "none"
        else tool
        for tool in prepared
    )


def rules_of(caps: Capabilities) -> SchemaRules:
    """The schema rules of ``caps``' target (``Capabilities.tool_schema``)."""
    from .rules import RULES

    rules = RULES.get(caps.tool_schema)
    if rules is None:
        raise ToolDefinitionError(
            f"{caps.provider}:{caps.model}: tool_schema {caps.tool_schema!r} names no rules; "
            f"known: {', '.join(sorted(RULES))}"
        )
    return rules


def tool_digest(tool: Tool) -> bytes:
    """The sha256 of every field of ``tool`` (its name, description, parameters in their key
    order, strict): pydantic's JSON of it, or, where a text holds a lone surrogate (which
    that JSON cannot encode), the digest of its fields as data (``toolwire.digest``)."""
    try:
        data = tool.model_dump_json()
    except ValueError:  # a lone surrogate
        from ..digest import digest_of

        return b"fields:" + digest_of(tool.model_dump(mode="python"))
    return hashlib.sha256(data.encode()).digest()


def _chars(prepared: PreparedTool) -> int:
    """About how many characters a kept preparation holds (its bound in the memo)."""
    held = [prepared.tool.model_dump(mode="python"), prepared._sent]
    return len(json.dumps(held, ensure_ascii=False))


def prepare_tool(tool: Tool, rules: SchemaRules) -> PreparedTool:
    """``tool`` as ``rules``' targets take it: ``prepare`` of its parameters, ``strict``
    settled (strict mode's parameters made where it goes strict)."""
    parameters = tool.parameters
    try:
        prepared = prepare(parameters, tool.name, rules)
    except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
        raise _malformed(tool.name, exc) from exc
    notes = list(prepared.notes)
    strict, strict_sent = _strict(tool, prepared.parameters, rules, notes)
    if prepared.parameters != parameters or prepared.described or strict != tool.strict:
        description = tool.description  # the author's text as written, unless added to
        if prepared.described:
            description = f"{description.rstrip()} {prepared.described}".lstrip()
        tool = Tool(
            name=tool.name,
            description=description,
            parameters=prepared.parameters,
            strict=strict,
        )
    from ..plan.ids import has_lone_surrogate

    sent = strict_sent or prepared.sent
    scrub = has_lone_surrogate([tool.name, tool.description, tool.parameters, sent])
    return PreparedTool(tool, tuple(notes), prepared.renames, prepared.form, sent, scrub)


def prepare_tools(
    tools: Sequence[Tool], caps: Capabilities
) -> tuple[list[Tool], list[ToolNote], dict[str, Renames]]:
    """Each tool as ``caps``' target takes it (``prepared_tools``, nothing kept), the notes
    of every change, and the renamed parameters per tool name."""
    prepared = prepared_tools(tools, caps)
    notes = [note for one in prepared for note in one.notes]
    renames = {one.name: one.renames for one in prepared if one.renames}
    return [one.tool for one in prepared], notes, renames


def _strict(
    tool: Tool, parameters: dict[str, Any], rules: SchemaRules, notes: list[ToolNote]
) -> tuple[bool, dict[str, Any] | None]:
    """Whether ``tool`` goes in strict mode, and its parameters as strict mode takes them:
    its schema checked against strict mode's rules, each keyword they move noted;
    ``strict="auto"`` without it (noted) where it breaks one."""
    from .strict import SOURCE, strict_parameters

    if not tool.strict or not rules.strict_mode:
        return False, None
    moved: list[tuple[str, str]] = []
    try:
        try:
            sent = strict_parameters(parameters, tool.name, moved)
        except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
            raise _malformed(tool.name, exc) from exc
    except ToolDefinitionError as exc:
        if tool.strict is True:
            raise
        notes.append(ToolNote(tool.name, "parameters", f"sent without strict mode: {exc}", SOURCE))
        return False, None
    for where, keyword in moved:
        change = (
            f"{keyword} left out (an annotation strict mode does not take)"
            if keyword.startswith("$")
            or keyword in ("examples", "discriminator", "readOnly", "writeOnly")
            else f"{keyword} written into the description (strict mode does not take it)"
        )
        notes.append(ToolNote(tool.name, where, change, SOURCE))
    return True, sent


def _malformed(tool: str, exc: Exception) -> ToolDefinitionError:
    """A keyword of the wrong shape (``properties`` a list, ``required`` a number, ``anyOf``
    not a list): a hostile or broken listing is not JSON Schema."""
    return ToolDefinitionError(
        f"tool {tool!r}: its parameters are not JSON Schema toolwire can repair: a keyword has "
        f"the wrong shape ({type(exc).__name__}: {exc}). Check its properties (an object), "
        "required (a list of names), enum and anyOf/oneOf/allOf (lists)."
    )
