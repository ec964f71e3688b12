"""JSON Schema dialects (tools/schema.py, gemini.py, strict.py, ollama.py): what each target
receives for the same schema, and what cannot be rewritten without changing its meaning."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from toolwire.tools import Tool, ToolDefinitionError
from toolwire.tools.gemini import gemini_parameters
from toolwire.tools.ollama import ollama_parameters
from toolwire.tools.schema import inline_refs
from toolwire.tools.strict import strict_parameters

from .helpers import ship

NESTED: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "to": {"$ref": "#/$defs/Address", "description": "Where it goes."},
        "via": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": None},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "count": {"type": ["integer", "null"], "exclusiveMinimum": 0, "examples": [3]},
        "mode": {"const": "fast"},
        "link": {"type": "string", "format": "uri"},
        "when": {"type": "string", "format": "date-time"},
    },
    "required": ["to"],
    "additionalProperties": False,
    "$defs": {
        "Address": {
            "type": "object",
            "title": "Address",
            "properties": {"street": {"type": "string"}},
            "required": ["street"],
            "additionalProperties": {"type": "string"},
        }
    },
}


def test_refs_are_inlined_with_the_keywords_beside_them_winning() -> None:
    inlined = inline_refs(NESTED, "t")
    assert "$defs" not in inlined
    assert inlined["properties"]["to"]["description"] == "Where it goes."
    assert inlined["properties"]["to"]["properties"] == {"street": {"type": "string"}}
    assert inlined["properties"]["via"]["anyOf"][0]["title"] == "Address"


def test_gemini_gets_its_subset_with_refs_inlined_and_unsupported_keywords_left_out() -> None:
    schema = gemini_parameters(NESTED, "t")
    assert schema is not None
    properties = schema["properties"]
    address = {
        "type": "OBJECT",
        "title": "Address",
        "properties": {"street": {"type": "STRING"}},
        "required": ["street"],
    }
    assert schema["type"] == "OBJECT" and schema["required"] == ["to"]
    assert "additional_properties" not in schema and "$schema" not in schema
    assert properties["to"] == {**address, "description": "Where it goes."}
    assert properties["via"] == {**address, "nullable": True}
    assert properties["tags"] == {"type": "ARRAY", "items": {"type": "STRING"}}
    assert properties["count"] == {"type": "INTEGER", "nullable": True}
    assert properties["mode"] == {"enum": ["fast"]}
    assert properties["link"] == {"type": "STRING"}  # only enum and date-time formats
    assert properties["when"] == {"type": "STRING", "format": "date-time"}


def test_gemini_turns_a_union_into_any_of_and_a_one_part_all_of_into_its_schema() -> None:
    schema = {
        "type": "object",
        "properties": {
            "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "both": {"type": ["string", "number"]},
            "size": {"allOf": [{"type": "integer", "minimum": 1}], "description": "Size."},
        },
    }
    properties = gemini_parameters(schema, "t")["properties"]  # type: ignore[index]
    assert properties["id"] == {"any_of": [{"type": "STRING"}, {"type": "INTEGER"}]}
    assert properties["both"] == {"any_of": [{"type": "STRING"}, {"type": "NUMBER"}]}
    assert properties["size"] == {"type": "INTEGER", "minimum": 1, "description": "Size."}


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        (
            {
                "type": "object",
                "properties": {"node": {"$ref": "#/$defs/Node"}},
                "$defs": {
                    "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}
                },
            },
            "the schema refers to itself (#/$defs/Node -> #/$defs/Node",
        ),
        (
            {"type": "object", "properties": {"a": {"$ref": "https://x/y.json"}}},
            "only local references",
        ),
        (
            {"type": "object", "properties": {"a": {"not": {"type": "string"}}}},
            "Gemini cannot take the JSON Schema keyword 'not' (at parameters.properties.a)",
        ),
        (
            {"type": "object", "properties": {"a": {"enum": [1, 2]}}},
            "Gemini enums are strings",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "array", "prefixItems": []}}},
            "'prefixItems'",
        ),
        (
            {"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {}]}}},
            "'allOf'",
        ),
    ],
    ids=["recursive", "external", "not", "number-enum", "tuple", "all-of"],
)
def test_gemini_refuses_what_it_cannot_take_without_changing_meaning(schema, message) -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        gemini_parameters(schema, "pick")
    assert message in str(caught.value)
    assert "tool 'pick'" in str(caught.value)


def test_gemini_refuses_a_parameter_name_outside_its_rule() -> None:
    schema = {"type": "object", "properties": {"page-start": {"type": "integer"}}}
    with pytest.raises(
        ToolDefinitionError, match="Gemini cannot take the parameter name 'page-start'"
    ):
        gemini_parameters(schema, "read")
    renamed = {"type": "object", "properties": {"page_start": {"type": "integer"}}}
    assert gemini_parameters(renamed, "read") == {
        "type": "OBJECT",
        "properties": {"page_start": {"type": "INTEGER"}},
    }


def _objects(schema: Any) -> list[dict[str, Any]]:
    """Every object schema inside ``schema``."""
    found = []
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            found.append(schema)
        for value in schema.values():
            found += _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            found += _objects(value)
    return found


def test_strict_schemas_close_every_object_require_every_property_and_null_the_optional() -> None:
    schema = strict_parameters(Tool.from_function(ship).parameters, "ship")
    for node in _objects(schema):
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])
    properties = schema["properties"]
    assert properties["speed"] == {
        "description": 'How fast. Default: "air".',
        "enum": ["air", "sea", None],
        "type": ["string", "null"],
    }
    assert properties["copies"] == {"description": "Default: 1.", "type": ["integer", "null"]}
    assert properties["insured"]["anyOf"] == [{"type": "boolean"}, {"type": "null"}]
    assert "$ref" not in properties["parcel"]  # a described $ref is inlined
    assert properties["parcel"]["description"] == "The parcel and where it goes."
    address = schema["$defs"]["Address"]
    assert address["properties"]["city"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    validator = jsonschema.Draft202012Validator(schema)
    parcel = {"items": ["a"], "to": {"street": "Main", "city": None}}
    call = {"parcel": parcel, "speed": None, "insured": None, "copies": None, "notes": None}
    assert validator.is_valid(call)
    assert not validator.is_valid({"parcel": parcel})  # every property is sent
    assert not validator.is_valid({**call, "extra": 1})


def test_strict_inlines_a_ref_with_keywords_beside_it_and_keeps_a_bare_one() -> None:
    source = {
        "type": "object",
        "properties": {
            "to": {"$ref": "#/$defs/A", "description": "Where."},
            "back": {"$ref": "#/$defs/A"},
        },
        "required": ["to", "back"],
        "$defs": {"A": {"type": "object", "properties": {"s": {"type": "string"}}}},
    }
    schema = strict_parameters(source, "t")
    assert schema["properties"]["back"] == {"$ref": "#/$defs/A"}
    assert schema["properties"]["to"] == {
        "type": "object",
        "properties": {"s": {"type": ["string", "null"]}},
        "description": "Where.",
        "required": ["s"],
        "additionalProperties": False,
    }
    assert schema["$defs"]["A"]["additionalProperties"] is False


@pytest.mark.parametrize(
    ("schema", "keyword"),
    [
        ({"type": "object", "additionalProperties": {"type": "integer"}}, "additionalProperties"),
        ({"type": "object", "properties": {"a": {"not": {}}}}, "not"),
        ({"type": "object", "patternProperties": {"^x": {}}}, "patternProperties"),
    ],
)
def test_strict_refuses_a_free_form_mapping_or_composition_it_cannot_express(schema, keyword):
    with pytest.raises(
        ToolDefinitionError, match=f"OpenAI strict mode cannot take .*'{keyword}'.*strict=False"
    ):
        strict_parameters(schema, "t")


def test_ollama_keeps_what_its_client_sends_and_says_the_rest_in_the_description() -> None:
    schema = ollama_parameters(NESTED, "t")
    properties = schema["properties"]
    assert set(schema) == {"type", "required", "properties"}
    assert properties["tags"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": 'Schema: {"uniqueItems":true}',
    }
    assert properties["via"]["type"] == ["object", "null"]
    assert '"properties":{"street":{"type":"string"}}' in properties["via"]["description"]
    assert properties["count"]["type"] == ["integer", "null"]


def test_strict_says_how_to_take_a_mapping_it_cannot_spell() -> None:
    """dict[str, X] has no strict spelling (every object names its keys): the error names the
    path, the rule and its source, and each way out; strict="auto" falls back with that note."""
    import toolwire as tw

    def tally(scores: dict[str, int]) -> int:
        """Add the scores up."""
        return sum(scores.values())

    strict = tw.Tool.from_function(tally, strict=True)
    with pytest.raises(ToolDefinitionError) as caught:
        tw.encode([tw.User("hi")], "openai:gpt-5", tools=[strict])
    said = str(caught.value)
    for part in (
        "tool 'tally'",
        "'additionalProperties' (at parameters.properties.scores)",
        '{"type": "integer"}',
        "dict[str, X]",
        "additionalProperties: false must always be set in objects",
        'OpenAI structured outputs, "Supported schemas"',
        "name its keys",
        '{"key": …, "value": …}',
        'strict="auto"',
        "strict=False",
    ):
        assert part in said, part
    auto = tw.encode(
        [tw.User("hi")], "openai:gpt-5", tools=[strict.model_copy(update={"strict": "auto"})]
    )
    assert auto.kwargs["tools"][0]["strict"] is False
    assert any("name its keys" in n.change for n in auto.tool_notes)
