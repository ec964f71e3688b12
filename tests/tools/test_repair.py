"""Tool schemas repaired for their target, each change a note, and arguments mapped back
(issue 31: tools.repair, tools.rules).

Each case is a shape real MCP servers publish; each request goes through the official SDK's
strict request types (``helpers.validate``), and each repaired schema is checked with
``jsonschema`` to still take the arguments the original took.
"""

from __future__ import annotations

import copy
import re
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from pydantic import AnyUrl, BaseModel, Field

import toolwire as tw
from toolwire.tools import Tool, ToolDefinitionError
from toolwire.tools.repair import prepare_tools, renamed_back

from .helpers import MODELS, first_tool_spec, validate

HELLO = [tw.User("hi")]
NOVA = "bedrock:us.amazon.nova-pro-v1:0"

#: A zod union at the root, as TypeScript MCP servers publish it (no type, $schema beside).
UNION = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "anyOf": [
        {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        {
            "type": "object",
            "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
            "required": ["path"],
        },
    ],
}
#: Query-string style parameter names (JSON:API filters, PHP arrays, spaces, non-ASCII).
ODD_NAMES = {
    "type": "object",
    "properties": {
        "filter[name]": {"type": "string"},
        "$top": {"type": "integer"},
        "page size": {"type": "integer"},
        "städte": {"type": "array", "items": {"type": "string"}},
        "plain": {"type": "string"},
    },
    "required": ["filter[name]", "plain"],
}
BARE = {
    "type": "object",
    "properties": {
        "ids": {"type": "array"},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
    },
}


def spec_of(model: str, tool: Tool) -> tuple[dict[str, Any], tw.Request]:
    request = tw.encode(HELLO, model, tools=[tool])
    validate(request.kwargs, model)
    return first_tool_spec(request.kwargs, tw.capabilities(model).wire), request


def parameters_of(spec: dict[str, Any]) -> dict[str, Any]:
    for key in ("input_schema", "parameters", "parameters_json_schema"):
        if key in spec:
            return spec[key]  # type: ignore[no-any-return]
    return spec["inputSchema"]["json"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("target", sorted(MODELS))
def test_a_root_union_becomes_one_object_on_every_target(target: str) -> None:
    model = MODELS[target]
    spec, request = spec_of(model, Tool("get", "Get a page.", UNION))
    parameters = parameters_of(spec)
    assert not {"anyOf", "oneOf", "allOf"} & set(parameters)
    assert str(parameters.get("type", "")).lower() == "object"
    assert any("merged the anyOf branches" in n.change for n in request.tool_notes)
    assert all(n.tool == "get" and n.rule for n in request.tool_notes)


def test_the_merged_union_takes_what_each_branch_took_and_says_the_alternatives() -> None:
    [tool], notes, _ = prepare_tools(
        [Tool("get", "Get.", UNION)], tw.capabilities(MODELS["openai"])
    )
    schema = tool.parameters
    for arguments in ({"id": "a"}, {"path": "p", "ref": "main"}):
        jsonschema.validate(arguments, UNION)
        jsonschema.validate(arguments, schema)
    assert "required" not in schema  # no parameter every branch requires
    assert "(1) id; (2) path" in schema["description"]


@pytest.mark.parametrize(
    "model", [MODELS["anthropic"], MODELS["bedrock"], "openrouter:anthropic/claude-sonnet-4.5"]
)
def test_parameter_names_claude_refuses_are_renamed_and_decoded_back(model: str) -> None:
    tool = Tool("find", "Find rows.", ODD_NAMES)
    spec, request = spec_of(model, tool)
    names = list(parameters_of(spec)["properties"])
    assert all(re.fullmatch(r"[a-zA-Z0-9_.-]{1,64}", n) for n in names)
    assert "plain" in names and "städte" not in names
    renamed = {n.change.split("'")[1] for n in request.tool_notes if "sent as" in n.change}
    assert renamed == {"filter[name]", "$top", "page size", "städte"}
    _, _, renames = prepare_tools([tool], tw.capabilities(model))
    sent = {names[0]: "x", names[1]: 2, "plain": "p"}
    back = renamed_back(sent, renames["find"])
    assert back == {"filter[name]": "x", "$top": 2, "plain": "p"}
    jsonschema.validate(back, ODD_NAMES)


def test_decode_with_tools_hands_the_tool_the_names_its_schema_declared() -> None:
    tool = Tool("find", "Find rows.", ODD_NAMES)
    model = MODELS["anthropic"]
    spec, _ = spec_of(model, tool)
    sent = list(parameters_of(spec)["properties"])
    reply = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "find",
                "input": {sent[0]: "x", "plain": "p"},
            }
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    call = tw.decode(reply, model, tools=[tool]).content[0]
    assert isinstance(call, tw.ToolCall) and call.arguments == {"filter[name]": "x", "plain": "p"}
    assert tw.decode(reply, model).content[0].arguments == {sent[0]: "x", "plain": "p"}  # type: ignore[union-attr]


def test_gemini_gets_names_it_takes_and_required_only_what_is_declared() -> None:
    schema = copy.deepcopy(ODD_NAMES)
    schema["required"] = [*schema["required"], "ghost"]
    spec, request = spec_of(MODELS["google"], Tool("find", "Find rows.", schema))
    parameters = parameters_of(spec)
    assert all(re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}", n) for n in parameters["properties"])
    assert "ghost" not in parameters["required"]
    assert any("'ghost'" in n.change and "opencode#3140" in n.rule for n in request.tool_notes)


def test_nova_keeps_only_type_properties_and_required_at_the_root() -> None:
    schema = {**ODD_NAMES, "$schema": "http://json-schema.org/draft-07/schema#"}
    schema |= {"additionalProperties": False, "$defs": {"Unused": {"type": "string"}}}
    spec, request = spec_of(NOVA, Tool("find", "Find rows.", schema))
    assert set(parameters_of(spec)) <= {"type", "properties", "required"}
    assert '"additionalProperties":false' in spec["description"]
    assert any("left the root" in n.change and "zed#28521" in n.rule for n in request.tool_notes)


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_openai_arrays_always_say_their_items_and_tuples_become_lists(target: str) -> None:
    spec, request = spec_of(MODELS[target], Tool("pick", "Pick.", BARE))
    properties = parameters_of(spec)["properties"]
    assert properties["ids"]["items"] == {}
    pair = properties["pair"]
    assert "prefixItems" not in pair and pair["minItems"] == pair["maxItems"] == 2
    jsonschema.validate(
        {"ids": [1, "a"], "pair": ["a", 1]}, parameters_of(spec.get("function", spec))
    )
    assert len(request.tool_notes) == 2


def test_more_tools_than_chat_completions_takes_is_a_clear_error() -> None:
    tools = [Tool(f"t{n}", "A tool.", {"type": "object", "properties": {}}) for n in range(129)]
    with pytest.raises(ToolDefinitionError, match="129 tools .* at most 128"):
        tw.encode(HELLO, MODELS["openai-chat"], tools=tools)
    tw.encode(HELLO, MODELS["anthropic"], tools=tools)  # no such limit documented there


def test_a_branch_that_is_not_an_object_is_refused_naming_the_path() -> None:
    schema = {"anyOf": [{"type": "object", "properties": {}}, {"type": "string"}]}
    with pytest.raises(
        ToolDefinitionError, match=r"tool 'odd': parameters.anyOf\[1\] is not an object"
    ):
        tw.encode(HELLO, MODELS["anthropic"], tools=[Tool("odd", "", schema)])


def test_a_tool_the_target_takes_as_it_is_goes_unchanged_with_no_note() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    for model in MODELS.values():
        request = tw.encode(HELLO, model, tools=[Tool("search", "Search.", schema)])
        assert request.tool_notes == []


@pytest.mark.parametrize(
    ("property_schema", "said"),
    [
        ({"type": "object", "additionalProperties": {"type": "integer"}}, "additionalProperties"),
        ({"type": "integer", "enum": [1, 2, 3]}, "enum"),
        ({"$ref": "#/$defs/Node"}, "$ref (recursive)"),
    ],
    ids=["mapping", "number-enum", "recursive"],
)
def test_gemini_takes_what_its_schema_subset_cannot_say_as_json_schema(
    property_schema: dict[str, Any], said: str
) -> None:
    """dict[str, int], integer enums and recursive models (what pydantic writes) go to Gemini
    as parameters_json_schema, with a note, instead of an OBJECT Gemini rejects as empty."""
    schema: dict[str, Any] = {"type": "object", "properties": {"value": property_schema}}
    if "$ref" in property_schema:
        node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}
        schema["$defs"] = {"Node": node}
    for model in (MODELS["google"], MODELS["google-vertex"]):
        spec, request = spec_of(model, Tool("put", "Put a value.", schema))
        assert "parameters" not in spec and spec["parameters_json_schema"]["properties"]["value"]
        assert any(
            said in n.change and "parameters_json_schema" in n.rule for n in request.tool_notes
        )


def test_a_chain_of_references_goes_to_gemini_unexpanded_and_is_refused_where_it_must_inline() -> (
    None
):
    defs = {
        f"D{i}": {"type": "object", "properties": {k: {"$ref": f"#/$defs/D{i + 1}"} for k in "ab"}}
        for i in range(17)
    }
    defs["D17"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs}
    spec, request = spec_of(MODELS["google"], Tool("deep", "", schema))
    assert len(str(spec)) < 20_000  # the 2**17 copies were never made
    with pytest.raises(ToolDefinitionError, match="more than 10,000 subschemas"):
        tw.encode(HELLO, MODELS["ollama"], tools=[Tool("deep", "", schema)])


def test_nova_gets_no_cache_point_after_its_tools_and_claude_on_bedrock_does() -> None:
    tool = Tool("f", "A tool.", {"type": "object", "properties": {"a": {"type": "string"}}})
    history = [tw.System("Be brief."), tw.User("hi")]
    nova = tw.encode(history, NOVA, tools=[tool], cache=True)
    assert "cachePoint" not in str(nova.kwargs["toolConfig"])
    assert [str(p) for p in nova.cache_points] == ["after the system prompt"]
    validate(nova.kwargs, NOVA)
    claude = tw.encode(history, MODELS["bedrock"], tools=[tool], cache=True)
    assert claude.kwargs["toolConfig"]["tools"][-1] == {"cachePoint": {"type": "default"}}


class Node(BaseModel):
    """A tree: pydantic writes a recursive $ref."""

    label: str
    children: list[Node] = []


def hard(
    url: AnyUrl,
    data: bytes,
    tags: set[str],
    counts: dict[str, int],
    pair: tuple[str, int],
    level: Literal[1, 2, 3],
    tree: Node,
    note: Annotated[str, Field(description="A short note", max_length=50)] = "",
) -> str:
    """Every hard Python type at once."""
    return ""


@pytest.mark.parametrize("target", sorted(MODELS))
@pytest.mark.parametrize("strict", [False, "auto"])
def test_pydantic_s_hard_types_go_on_every_target(target: str, strict: bool | str) -> None:
    """AnyUrl, bytes, set, dict[str, int], tuples, integer literals and a recursive model,
    as pydantic writes them: each target gets a request its SDK takes (Gemini as JSON
    Schema, OpenAI strict falling back with a note), or the one precise refusal left: Ollama
    cannot inline a recursive model."""
    tool = Tool.from_function(hard, strict=strict)  # type: ignore[arg-type]
    try:
        spec, request = spec_of(MODELS[target], tool)
    except ToolDefinitionError as exc:
        assert target == "ollama" and "refers to itself" in str(exc)
        return
    assert parameters_of(spec) or target == "google"
    if target == "openai" and strict == "auto":
        assert any("sent without strict mode" in n.change for n in request.tool_notes)


def test_a_named_root_a_draft_7_tuple_and_an_empty_tuple_are_repaired() -> None:
    named = {
        "$ref": "#/definitions/Args",
        "definitions": {
            "Args": {
                "type": "object",
                "properties": {
                    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]},
                    "none": {"type": "array", "prefixItems": []},
                },
            }
        },
    }
    for target in ("anthropic", "openai", "google", "mistral"):
        spec, request = spec_of(MODELS[target], Tool("t", "", named))
        properties = parameters_of(spec)["properties"]
        pair = properties["pair"]
        assert not isinstance(pair.get("items"), list) and "prefixItems" not in pair
        assert "prefixItems" not in properties["none"]
        assert any("root $ref followed" in n.change for n in request.tool_notes)


def test_strict_mode_merges_a_one_part_all_of_before_following_its_reference() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"allOf": [{"$ref": "#/$defs/A"}], "description": "the a"}},
        "required": ["a"],
        "$defs": {"A": {"type": "string"}},
    }
    spec, _ = spec_of(MODELS["openai"], Tool("t", "", schema, strict=True))
    assert parameters_of(spec)["properties"]["a"] == {"type": "string", "description": "the a"}


def test_strict_auto_falls_back_on_what_its_rewrite_cannot_walk() -> None:
    schema = {"type": "object", "properties": {"anything": True}}
    _, request = spec_of(MODELS["openai"], Tool("t", "", schema, strict="auto"))
    assert any("sent without strict mode" in n.change for n in request.tool_notes)


def test_merging_a_root_all_of_keeps_each_parts_rules() -> None:
    schema = {
        "type": "object",
        "properties": {"mode": {"enum": ["fast", "safe"]}},
        "allOf": [
            {"type": "object", "properties": {"mode": {"type": "string", "description": "How."}}},
            {"anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
        ],
    }
    [tool], notes, _ = prepare_tools([Tool("t", "", schema)], tw.capabilities(MODELS["anthropic"]))
    merged = tool.parameters
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"mode": "slow"}, merged)  # the enum of the root still holds
    assert '"required":["a"]' in merged["description"]
    assert any("allOf" in n.change for n in notes)


def test_strict_mode_counts_nesting_through_references_and_keeps_optional_enums_optional() -> None:
    defs: dict[str, Any] = {
        f"D{i}": {"type": "object", "properties": {"n": {"$ref": f"#/$defs/D{i + 1}"}}}
        for i in range(12)
    }
    defs["D12"] = {"type": "string"}
    deep = {"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs}
    with pytest.raises(ToolDefinitionError, match="more than 10 levels"):
        tw.encode(HELLO, MODELS["openai"], tools=[Tool("t", "", deep, strict=True)])
    node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}
    recursive = {"type": "object", "properties": {"x": {"$ref": "#/$defs/N"}}, "$defs": {"N": node}}
    spec, _ = spec_of(MODELS["openai"], Tool("t", "", recursive, strict=True))
    assert spec["strict"] is True  # recursion is strict mode's own; one pass of it is counted
    odd = {"type": "object", "properties": {"a": {"type": ["string", "integer"], "enum": ["x", 1]}}}
    spec, _ = spec_of(MODELS["openai"], Tool("t", "", odd, strict=True))
    jsonschema.validate({"a": None}, parameters_of(spec))  # optional: null taken


def test_the_alternatives_of_a_merged_union_name_parameters_as_the_target_gets_them() -> None:
    union = {
        "anyOf": [
            {
                "type": "object",
                "properties": {"file-path": {"type": "string"}},
                "required": ["file-path"],
            },
            {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
        ]
    }
    spec, _ = spec_of(MODELS["google"], Tool("open", "", union))
    assert "(1) file_path; (2) url" in parameters_of(spec)["description"]


def test_strict_mode_refuses_a_subschema_without_a_type_and_auto_falls_back() -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"description": "Anything."}},
        "required": ["x"],
    }
    with pytest.raises(
        ToolDefinitionError, match=r"needs every subschema to say its type.*properties\.x"
    ):
        tw.encode(HELLO, MODELS["openai"], tools=[Tool("t", "", schema, strict=True)])
    spec, request = spec_of(MODELS["openai"], Tool("t", "", schema, strict="auto"))
    assert spec["strict"] is False
    assert any("sent without strict mode" in n.change for n in request.tool_notes)
