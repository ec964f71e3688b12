"""Tool definitions and ``tool_choice`` in each wire's own shape: one dialect function per
wire shape, named by the wire (``Wire.tools``, declared in providers/<wire>.py).

``spell(tools, tool_choice, caps)`` prepares the tools for the target (tools.repair: their
schemas repaired, strict mode settled, Gemini's ``Schema`` subset made), checks them and the
choice against the target's wire and returns the fragment of the SDK call's keyword arguments
that carries them; ``encode`` merges it into the request (Gemini's into ``config``), from
the tools its plan prepared (``spell_prepared``). A dialect only spells: the tools reach it
prepared (``PreparedTool``), the names and the choice checked.

- anthropic (Messages API "Tool use"): ``tools[{name, description, input_schema}]``;
  ``tool_choice`` ``{"type": "auto" | "none" | "any" | "tool", "name"}``.
- openai_responses (Responses API "Function calling"): ``tools[{type: "function", name,
  description, parameters, strict}]`` — ``strict`` is always sent, since the API takes an
  absent one as true; ``tool_choice`` a string or ``{type: "function", name}``.
- openai_chat (Chat Completions): ``tools[{type: "function", function: {…}}]``;
  ``tool_choice`` a string or ``{type: "function", function: {name}}``.
- google (google-genai ``GenerateContentConfig``): ``tools[{function_declarations}]`` and
  ``tool_config.function_calling_config`` (mode AUTO | NONE | ANY, allowed_function_names).
- bedrock (Converse ``ToolConfiguration``): ``toolConfig{tools[{toolSpec{name, description,
  inputSchema{json}}}], toolChoice{auto | any | tool}}`` — Converse has no "none".
- mistral (mistralai ``Tool``, ``ToolChoice``), cohere (Cohere v2 ``ToolV2``; tool_choice
  ``REQUIRED`` | ``NONE`` only), ollama (``ollama.Tool``; no tool_choice at all).

A name the wire forbids is refused (``Wire.names``, the rule replayed tool calls are held
to), and so is a tool_choice the wire has no spelling for (``Wire.tool_choices``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..capability import Capabilities
from ..errors import suggest
from ..plan.ids import accepted_name, accepts
from .errors import ToolDefinitionError
from .ollama import ollama_parameters
from .repair import PreparedTool, forced, prepared_tools
from .tool import Tool

if TYPE_CHECKING:
    from ..providers import Wire

ToolChoice = Literal["auto", "none", "required"] | str
#: A normalised choice: "auto", "none", "required", or ("tool", name).
Choice = str | tuple[str, str]


def spell(
    tools: Sequence[Tool], tool_choice: ToolChoice | None, caps: Capabilities
) -> dict[str, Any]:
    """The keyword-argument fragment carrying ``tools`` and ``tool_choice`` on ``caps``' wire
    ({} when there are neither), each tool prepared for the target (``tools.repair``)."""
    if not tools:
        return spell_prepared((), tool_choice, caps)
    return spell_prepared(forced(prepared_tools(tools, caps), tool_choice, caps), tool_choice, caps)


def spell_prepared(
    tools: Sequence[PreparedTool], tool_choice: ToolChoice | None, caps: Capabilities
) -> dict[str, Any]:
    """``spell`` of tools already prepared for ``caps``' target (``repair.prepared_tools``)."""
    tools = list(tools)
    if not tools:
        if tool_choice not in (None, "auto", "none"):
            raise ToolDefinitionError(
                f"tool_choice={tool_choice!r} but no tools are given; pass tools=[...]."
            )
        return {}
    from ..providers import wire_named

    wire = wire_named(caps.wire)
    _check_names(tools, caps, wire)
    choice = _choice(tool_choice, tools)
    _check_choice(choice, wire)
    try:
        return wire.tools(tools, choice)
    except (TypeError, AttributeError, ValueError, KeyError) as exc:
        # a keyword of the wrong shape (``properties`` a list, ``required`` a number, …): the
        # dialects rewrite JSON Schema, and hostile listings are not one
        raise ToolDefinitionError(
            f"the tools' parameters are not JSON Schema the {wire.name} dialect can rewrite: a "
            f"keyword has the wrong shape ({type(exc).__name__}: {exc}). Check each tool's "
            "properties (an object), required (a list of names), enum and anyOf/allOf (lists)."
        ) from exc


def _check_names(tools: list[PreparedTool], caps: Capabilities, wire: Wire) -> None:
    rule = wire.names
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            raise ToolDefinitionError(f"two tools are named {tool.name!r}; tool names are unique.")
        seen.add(tool.name)
        if not accepts(rule, tool.name):
            allowed = f"names matching {rule.pattern!r}" if rule.pattern else "any text"
            if rule.max_length:
                allowed += f", at most {rule.max_length} characters"
            raise ToolDefinitionError(
                f"{caps.provider} forbids the tool name {tool.name!r}: {rule.source} allows "
                f"{allowed} (and UTF-8 text). Rename the tool for this target, e.g. "
                f"{accepted_name(caps.wire, tool.name)!r} — the name toolwire gives replayed "
                "calls of it (accepted_name of the id and name rules)."
            )


def _choice(tool_choice: ToolChoice | None, tools: list[PreparedTool]) -> Choice | None:
    if tool_choice is None or tool_choice in ("auto", "none", "required"):
        return tool_choice
    names = [t.name for t in tools]
    if tool_choice not in names:
        raise ToolDefinitionError(
            f"tool_choice={tool_choice!r} is not 'auto', 'none', 'required' or the name of a "
            f"given tool ({', '.join(names)}).{suggest(tool_choice, names)}"
        )
    return ("tool", tool_choice)


def _check_choice(choice: Choice | None, wire: Wire) -> None:
    """A choice the wire's dialect has no spelling for is refused, saying what it takes."""
    kind = choice[0] if isinstance(choice, tuple) else choice
    if kind is None or kind in wire.tool_choices:
        return
    shown = choice[1] if isinstance(choice, tuple) else choice
    taken = [_SHOWN[c] for c in _SHOWN if c in wire.tool_choices]
    advice = "leave tools out of this request instead" if kind == "none" else "leave it unset"
    raise ToolDefinitionError(
        f"{wire.name} has no tool_choice {shown!r}: it takes {' or '.join(taken) or 'none'}; "
        f"{advice}."
    )


_SHOWN = {"auto": "'auto'", "none": "'none'", "required": "'required'", "tool": "a tool's name"}


def _described(spec: dict[str, Any], description: str) -> dict[str, Any]:
    return {**spec, "description": description} if description else spec


# --- one function per wire -------------------------------------------------------------------


def anthropic_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    specs = [
        _described({"name": t.name}, t.description) | {"input_schema": t.sent()} for t in tools
    ]
    out: dict[str, Any] = {"tools": specs}
    if choice is not None:
        kinds = {"auto": "auto", "none": "none", "required": "any"}
        out["tool_choice"] = (
            {"type": "tool", "name": choice[1]}
            if isinstance(choice, tuple)
            else {"type": kinds[choice]}
        )
    return out


def openai_responses_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    specs = []
    for t in tools:
        spec = _described({"type": "function", "name": t.name}, t.description)
        specs.append(spec | {"parameters": t.sent(), "strict": t.strict})
    out: dict[str, Any] = {"tools": specs}
    if choice is not None:
        out["tool_choice"] = (
            {"type": "function", "name": choice[1]} if isinstance(choice, tuple) else choice
        )
    return out


def _function(tool: PreparedTool, parameters: dict[str, Any], strict: bool) -> dict[str, Any]:
    function = _described({"name": tool.name}, tool.description) | {"parameters": parameters}
    return {"type": "function", "function": function | ({"strict": True} if strict else {})}


def openai_chat_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    out: dict[str, Any] = {"tools": [_function(t, t.sent(), t.strict) for t in tools]}
    if choice is not None:
        out["tool_choice"] = (
            {"type": "function", "function": {"name": choice[1]}}
            if isinstance(choice, tuple)
            else choice
        )
    return out


def google_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    declarations = []
    for tool in tools:
        declaration = _described({"name": tool.name}, tool.description)
        if tool.form == "json_schema":  # full JSON Schema (tools.gemini)
            declaration["parameters_json_schema"] = tool.sent()
        elif tool.form == "parameters":
            declaration["parameters"] = tool.sent()
        declarations.append(declaration)
    config: dict[str, Any] = {"tools": [{"function_declarations": declarations}]}
    if choice is not None:
        modes = {"auto": "AUTO", "none": "NONE", "required": "ANY"}
        calling = (
            {"mode": "ANY", "allowed_function_names": [choice[1]]}
            if isinstance(choice, tuple)
            else {"mode": modes[choice]}
        )
        config["tool_config"] = {"function_calling_config": calling}
    return {"config": config}


def bedrock_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    specs = [
        {
            "toolSpec": _described({"name": t.name}, t.description)
            | {"inputSchema": {"json": t.sent()}}
        }
        for t in tools
    ]
    config: dict[str, Any] = {"tools": specs}  # Converse has no "none" (Wire.tool_choices)
    if isinstance(choice, tuple):
        config["toolChoice"] = {"tool": {"name": choice[1]}}
    elif choice in ("auto", "required"):
        config["toolChoice"] = {"auto": {}} if choice == "auto" else {"any": {}}
    return {"toolConfig": config}


def mistral_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    out: dict[str, Any] = {"tools": [_function(t, t.sent(), False) for t in tools]}
    if choice is not None:
        out["tool_choice"] = (
            {"type": "function", "function": {"name": choice[1]}}
            if isinstance(choice, tuple)
            else choice
        )
    return out


def cohere_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    out: dict[str, Any] = {"tools": [_function(t, t.sent(), False) for t in tools]}
    if choice in ("none", "required"):  # "auto" is Cohere's default; no tool by name
        out["tool_choice"] = choice.upper()
    return out


def ollama_tools(tools: list[PreparedTool], choice: Choice | None) -> dict[str, Any]:
    # Ollama's chat API takes no tool_choice: "auto" (its behaviour) is the only one spelled.
    specs = [_function(t, ollama_parameters(t.sent(), t.name), False) for t in tools]
    return {"tools": specs}


def mark_tools(fragment: dict[str, Any], marks: str) -> dict[str, Any]:
    """``fragment`` with the prompt-cache mark after its last tool definition (plan.cache):
    Anthropic ``cache_control`` on the last tool, Bedrock a ``cachePoint`` entry after it."""
    if marks == "anthropic":
        *rest, last = fragment["tools"]
        return {**fragment, "tools": [*rest, {**last, "cache_control": {"type": "ephemeral"}}]}
    config = fragment["toolConfig"]
    tools = [*config["tools"], {"cachePoint": {"type": "default"}}]
    return {**fragment, "toolConfig": {**config, "tools": tools}}
