"""spell (tools/spell.py): tool definitions and tool_choice for every target, each request
validated strictly against the target SDK's own types; names and choices a wire cannot take
are clear errors."""

from __future__ import annotations

import pytest

from toolwire.capability import capabilities, providers
from toolwire.messages import User
from toolwire.providers import BUILT_IN, wire_named, wires
from toolwire.request import encode
from toolwire.tools import Tool, ToolDefinitionError, spell
from toolwire.tools.spell import accepted_name

from .helpers import MODELS, first_tool_spec, sample_tools, validate, with_fragment

CHOICES = [None, "auto", "none", "required", "ship"]
#: (wire, tool_choice) pairs the wire has no spelling for.
LACKS = {
    ("bedrock", "none"),
    ("cohere", "ship"),
    ("ollama", "none"),
    ("ollama", "required"),
    ("ollama", "ship"),
}


def _request(model: str, tools: list[Tool], tool_choice: str | None = None) -> dict:
    base = encode([User("hi")], model).kwargs
    return with_fragment(base, spell(tools, tool_choice, capabilities(model)))


def test_every_provider_in_the_table_is_covered_and_every_wire_has_a_speller() -> None:
    assert sorted(MODELS) == providers()
    assert {capabilities(m).wire for m in MODELS.values()} == set(BUILT_IN)
    assert all(callable(wire.tools) for wire in wires().values())


@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize("provider", sorted(MODELS))
def test_the_tools_and_each_tool_choice_fit_the_targets_sdk_types(provider, choice) -> None:
    model = MODELS[provider]
    if (capabilities(model).wire, choice) in LACKS:
        with pytest.raises(ToolDefinitionError, match="has no tool_choice"):
            _request(model, sample_tools(), choice)
        return
    validate(_request(model, sample_tools(), choice), model)


@pytest.mark.parametrize("provider", ["openai", "openai-chat", "groq", "xai"])
def test_strict_tools_fit_the_openai_sdk_types_with_strict_set(provider) -> None:
    model = MODELS[provider]
    kwargs = _request(model, sample_tools(strict=True), "required")
    validate(kwargs, model)
    spec = first_tool_spec(kwargs, capabilities(model).wire)
    assert spec["strict"] is True
    assert spec["parameters"]["additionalProperties"] is False


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_the_validation_refuses_an_unknown_key_in_a_tool_definition(provider) -> None:
    model = MODELS[provider]
    kwargs = _request(model, sample_tools())
    first_tool_spec(kwargs, capabilities(model).wire)["cache"] = True
    with pytest.raises((ValueError, TypeError)):
        validate(kwargs, model)


def test_gemini_gets_no_parameters_for_a_tool_without_arguments() -> None:
    kwargs = _request(MODELS["google"], sample_tools())
    declarations = kwargs["config"]["tools"][0]["function_declarations"]
    assert declarations[1] == {
        "name": "screenshot",
        "description": "Take a screenshot of the screen.",
    }
    assert declarations[0]["parameters"]["type"] == "OBJECT"


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("auto", {"mode": "AUTO"}),
        ("none", {"mode": "NONE"}),
        ("required", {"mode": "ANY"}),
        ("ship", {"mode": "ANY", "allowed_function_names": ["ship"]}),
    ],
)
def test_gemini_tool_choice_is_a_function_calling_mode(choice, expected) -> None:
    fragment = spell(sample_tools(), choice, capabilities(MODELS["google"]))
    assert fragment["config"]["tool_config"] == {"function_calling_config": expected}


@pytest.mark.parametrize(
    ("provider", "expected"),
    [
        ("anthropic", {"type": "tool", "name": "ship"}),
        ("openai", {"type": "function", "name": "ship"}),
        ("openai-chat", {"type": "function", "function": {"name": "ship"}}),
        ("mistral", {"type": "function", "function": {"name": "ship"}}),
    ],
)
def test_a_tool_name_as_tool_choice_forces_that_tool(provider, expected) -> None:
    fragment = spell(sample_tools(), "ship", capabilities(MODELS[provider]))
    assert fragment["tool_choice"] == expected


def test_bedrock_required_is_any_and_a_name_is_tool() -> None:
    caps = capabilities(MODELS["bedrock"])
    assert spell(sample_tools(), "required", caps)["toolConfig"]["toolChoice"] == {"any": {}}
    assert spell(sample_tools(), "ship", caps)["toolConfig"]["toolChoice"] == {
        "tool": {"name": "ship"}
    }


def _forbidden(wire: str) -> str:
    """A name this wire's rule rejects."""
    return "" if wire_named(wire).names.pattern == "(?s).+" else "get weather!"


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_a_name_the_target_forbids_is_refused_naming_the_rule(provider) -> None:
    caps = capabilities(MODELS[provider])
    name = _forbidden(caps.wire)
    with pytest.raises(ToolDefinitionError) as caught:
        spell([Tool(name, "Say it.")], None, caps)
    message = str(caught.value)
    assert f"{caps.provider} forbids the tool name {name!r}" in message
    assert wire_named(caps.wire).names.source in message
    assert repr(accepted_name(caps.wire, name)) in message


def test_gemini_refuses_a_name_starting_with_a_digit_that_anthropic_takes() -> None:
    tool = Tool("3d_render", "Render.")
    assert spell([tool], None, capabilities(MODELS["anthropic"]))["tools"][0]["name"] == "3d_render"
    with pytest.raises(ToolDefinitionError, match="FunctionDeclaration"):
        spell([tool], None, capabilities(MODELS["google"]))


def test_two_tools_with_one_name_are_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="two tools are named 'a'"):
        spell([Tool("a"), Tool("a", "again")], None, capabilities(MODELS["openai"]))


def test_an_unknown_tool_choice_suggests_the_close_name() -> None:
    with pytest.raises(ToolDefinitionError, match="Did you mean 'ship'"):
        spell(sample_tools(), "shipp", capabilities(MODELS["anthropic"]))


def test_tool_choice_without_tools_is_refused_unless_it_asks_for_nothing() -> None:
    caps = capabilities(MODELS["anthropic"])
    assert spell([], "none", caps) == spell([], None, caps) == {}
    with pytest.raises(ToolDefinitionError, match="no tools are given"):
        spell([], "required", caps)


def test_something_that_is_not_a_tool_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="tools holds a dict"):
        spell([{"name": "x"}], None, capabilities(MODELS["anthropic"]))  # type: ignore[list-item]


def test_responses_always_says_strict_since_the_api_defaults_it_to_true() -> None:
    fragment = spell([Tool("a")], None, capabilities(MODELS["openai"]))
    assert fragment["tools"][0]["strict"] is False


def test_an_empty_description_is_left_out_where_bedrock_requires_a_non_empty_one() -> None:
    kwargs = _request(MODELS["bedrock"], [Tool("a")])
    assert kwargs["toolConfig"]["tools"] == [
        {"toolSpec": {"name": "a", "inputSchema": {"json": {"type": "object", "properties": {}}}}}
    ]
    validate(kwargs, MODELS["bedrock"])
