"""encode(..., tools=..., tool_choice=...) (request.py): the whole request, history and tool
definitions together, validated strictly against every target's SDK."""

from __future__ import annotations

import pytest

from toolwire.content import ToolCall
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import encode
from toolwire.tools import ToolDefinitionError

from .helpers import MODELS, sample_tools, validate

HISTORY = [
    System("Be brief."),
    User("Ship my parcel to Oslo."),
    Assistant(
        [
            ToolCall(
                id="call_1",
                name="ship",
                arguments={"parcel": {"items": ["a"], "to": {"street": "Main"}}},
            )
        ]
    ),
    ToolResult.of("call_1", "ship", {"tracking": "X1"}),
]


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_a_whole_request_with_tools_fits_the_targets_sdk_types(provider) -> None:
    model = MODELS[provider]
    choice = None if provider in ("ollama",) else "auto"
    request = encode(HISTORY, model, tools=sample_tools(), tool_choice=choice)
    validate(request.kwargs, model)
    assert request.to_json()  # JSON-safe with the tools in it


def test_gemini_tools_join_the_config_that_holds_the_system_instruction() -> None:
    kwargs = encode(HISTORY, MODELS["google"], tools=sample_tools(), tool_choice="ship").kwargs
    config = kwargs["config"]
    assert "system_instruction" in config
    assert config["tools"][0]["function_declarations"][0]["name"] == "ship"
    assert config["tool_config"]["function_calling_config"]["allowed_function_names"] == ["ship"]


def test_without_tools_the_request_is_what_it_was() -> None:
    model = MODELS["anthropic"]
    assert encode(HISTORY, model, tools=[]).kwargs == encode(HISTORY, model).kwargs
    assert "tools" not in encode(HISTORY, model).kwargs


def test_a_request_with_tools_starts_with_the_same_messages_turn_after_turn() -> None:
    model = MODELS["anthropic"]
    first = encode(HISTORY[:2], model, tools=sample_tools()).kwargs
    later = encode(HISTORY, model, tools=sample_tools()).kwargs
    assert later["tools"] == first["tools"]
    assert later["messages"][: len(first["messages"])] == first["messages"]


def test_encode_refuses_a_tool_choice_the_target_lacks() -> None:
    with pytest.raises(ToolDefinitionError, match="bedrock has no tool_choice 'none'"):
        encode(HISTORY, MODELS["bedrock"], tools=sample_tools(), tool_choice="none")


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_lone_surrogates_in_a_tools_text_never_reach_the_payload(provider) -> None:
    """A tool's name and description, and its schema's text, are scrubbed like the messages
    (U+FFFD), or the SDK's UTF-8 encoding of the body fails."""
    import json

    from toolwire.tools import Tool

    tool = Tool(
        "lookup",
        "Looks \ud800 up.",
        {"type": "object", "properties": {"q": {"type": "string", "description": "q\udfff"}}},
    )
    request = encode([User("hi")], MODELS[provider], tools=[tool])
    json.dumps(request.to_json(), ensure_ascii=False).encode("utf-8")  # raises on one
    assert "\ufffd" in json.dumps(request.to_json(), ensure_ascii=False)


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
@pytest.mark.parametrize("choice", ["required", "screenshot"])
def test_a_forced_call_on_gemini_declares_the_parameters_of_a_tool_without_any(
    provider, choice
) -> None:
    """Mode ANY with a declaration that says no parameters gets a 400 (python-genai#981): the
    plan declares the empty object as JSON Schema there, with a note; AUTO leaves it out."""
    from google.genai import types

    model = MODELS[provider]
    request = encode(HISTORY, model, tools=sample_tools(), tool_choice=choice)
    validate(request.kwargs, model)
    config = types.GenerateContentConfig.model_validate(request.kwargs["config"])
    declarations = config.tools[0].function_declarations  # type: ignore[index]
    screenshot = next(d for d in declarations if d.name == "screenshot")  # type: ignore[union-attr]
    assert screenshot.parameters is None
    assert screenshot.parameters_json_schema == {"type": "object", "properties": {}}
    assert [n.tool for n in request.tool_notes if "forces a call" in n.change] == ["screenshot"]
    assert config.tool_config.function_calling_config.mode == "ANY"  # type: ignore[union-attr]

    auto = encode(HISTORY, model, tools=sample_tools(), tool_choice="auto").kwargs["config"]
    spec = next(d for d in auto["tools"][0]["function_declarations"] if d["name"] == "screenshot")
    assert spec == {"name": "screenshot", "description": "Take a screenshot of the screen."}
