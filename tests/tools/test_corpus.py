"""Real MCP servers' tool schemas (tests/tools/corpus: 126 tools/list entries of 19 servers,
each with its source and licence) on every target (issue 31).

Every tool either goes, through the official SDK's strict request types, in a shape the
target's published rules take, or is refused with a ToolDefinitionError naming it. And the
arguments the original schema takes are still taken by what is sent (jsonschema), under the
names the target got (mapped back with the repair's renames).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import toolwire as tw
from toolwire.tools import Tool, ToolDefinitionError
from toolwire.tools.repair import prepare_tools

from .helpers import MODELS, first_tool_spec, validate

CORPUS = Path(__file__).parent / "corpus" / "mcp_tools.json"
HELLO = [tw.User("hi")]
TARGETS = {
    **MODELS,
    "bedrock-nova": "bedrock:us.amazon.nova-pro-v1:0",
    "openrouter-claude": "openrouter:anthropic/claude-sonnet-4.5",
}
CLAUDE_KEYS = re.compile(r"[a-zA-Z0-9_.-]{1,64}")


@cache
def entries() -> list[dict[str, Any]]:
    return json.loads(CORPUS.read_text("utf-8"))["tools"]  # type: ignore[no-any-return]


@cache
def corpus_tools() -> tuple[Tool, ...]:
    listed = [e for e in entries() if isinstance(e["inputSchema"], dict)]
    return tuple(tw.tools_from_mcp({"tools": listed}))


def test_the_corpus_is_real_material_with_its_sources() -> None:
    assert len(entries()) >= 100
    assert len({e["server"] for e in entries()}) >= 8
    assert all(e["source"] and e["licence"] for e in entries())


def test_a_listing_without_a_schema_is_refused_naming_the_tool() -> None:
    broken = [e for e in entries() if e["inputSchema"] is None]
    assert broken
    with pytest.raises(ToolDefinitionError, match=repr(broken[0]["name"])):
        tw.tools_from_mcp({"tools": broken})


def arrays_without_items(schema: Any) -> list[Any]:
    found = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            kind = node.get("type")
            if (
                kind == "array" or isinstance(kind, list) and "array" in kind
            ) and "items" not in node:
                found.append(node)
            stack.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(node)
    return found


def parameters_of(spec: dict[str, Any]) -> dict[str, Any] | None:
    for key in ("input_schema", "parameters", "parameters_json_schema"):
        if key in spec:
            return spec[key]  # type: ignore[no-any-return]
    if "inputSchema" in spec:
        return spec["inputSchema"]["json"]  # type: ignore[no-any-return]
    return None  # Gemini: a tool without arguments


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_every_corpus_tool_goes_in_a_shape_the_target_takes(target: str) -> None:
    model = TARGETS[target]
    wire = tw.capabilities(model).wire
    refused = []
    for tool in corpus_tools():
        try:
            request = tw.encode(HELLO, model, tools=[tool])
        except ToolDefinitionError as exc:
            assert repr(tool.name) in str(exc)
            refused.append(tool.name)
            continue
        validate(request.kwargs, model)
        parameters = parameters_of(first_tool_spec(request.kwargs, wire))
        if parameters is None:
            continue
        root = set(parameters)
        assert not {"anyOf", "oneOf", "allOf"} & root, (target, tool.name)
        if target in ("anthropic", "bedrock", "openrouter-claude"):
            assert all(CLAUDE_KEYS.fullmatch(k) for k in parameters.get("properties", {}))
        if target == "bedrock-nova":
            assert root <= {"type", "properties", "required"}, (tool.name, root)
        if wire in ("openai_responses", "openai_chat"):
            assert arrays_without_items(parameters) == [], tool.name
        if wire == "google" and "required" in parameters:
            assert set(parameters["required"]) <= set(parameters.get("properties", {}))
    assert refused == [], refused  # every real tool goes on every target


def minimal_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """The smallest arguments a simple schema takes: each required property a value of its
    type (the corpus tools' own validity is checked before they are used)."""
    samples = {
        "string": "x",
        "integer": 1,
        "number": 1.5,
        "boolean": True,
        "array": [],
        "object": {},
    }
    out = {}
    properties = schema.get("properties") or {}
    for name in schema.get("required") or ():
        sub = properties.get(name, {})
        if "enum" in sub:
            out[name] = sub["enum"][0]
            continue
        kind = sub.get("type", "string")
        out[name] = samples.get(kind[0] if isinstance(kind, list) else kind, "x")
    return out


@pytest.mark.parametrize("target", ["anthropic", "bedrock-nova", "openai", "mistral", "cohere"])
def test_what_is_sent_still_takes_the_arguments_the_original_took(target: str) -> None:
    model = TARGETS[target]
    caps = tw.capabilities(model)
    checked = 0
    for tool in corpus_tools():
        original = tool.parameters
        arguments = minimal_arguments(original)
        try:
            jsonschema.validate(arguments, original)
        except jsonschema.ValidationError:
            continue  # a schema whose arguments need more than the simple sample
        [sent], _, renames = prepare_tools([tool], caps)
        back = (
            {new: old for new, old in renames[tool.name].names.items()}
            if tool.name in renames
            else {}
        )
        renamed = {back.get(k, k): v for k, v in arguments.items()}
        jsonschema.validate(renamed, sent.parameters)
        checked += 1
    assert checked >= 80


def test_strict_mode_takes_the_corpus_or_says_exactly_why_not() -> None:
    """strict=True sends a tool in strict mode or refuses it, naming it; strict="auto" sends
    the same tool strict where True does, and otherwise without strict mode, with one note
    on that tool that carries True's reason."""
    refused = 0
    for tool in corpus_tools():
        try:
            strict = tw.encode(
                HELLO, MODELS["openai"], tools=[tool.model_copy(update={"strict": True})]
            )
            reason = None
        except ToolDefinitionError as exc:
            assert repr(tool.name) in str(exc) and "strict" in str(exc)
            reason, refused = str(exc), refused + 1
        auto = tw.encode(
            HELLO, MODELS["openai"], tools=[tool.model_copy(update={"strict": "auto"})]
        )
        validate(auto.kwargs, MODELS["openai"])
        fallbacks = [n for n in auto.tool_notes if n.change.startswith("sent without strict mode")]
        if reason is None:
            validate(strict.kwargs, MODELS["openai"])
            assert strict.kwargs["tools"][0]["strict"] is True
            assert auto.kwargs["tools"] == strict.kwargs["tools"] and not fallbacks
        else:
            assert auto.kwargs["tools"][0]["strict"] is False
            assert [(n.tool, n.path, n.change) for n in fallbacks] == [
                (tool.name, "parameters", f"sent without strict mode: {reason}")
            ]
    assert 0 < refused < len(corpus_tools())
