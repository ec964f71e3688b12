"""Tool (tools/tool.py, tools/docstrings.py): a frozen value holding a JSON Schema object, built
by hand or from a typed function's hints and docstring."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from pydantic import Field

import toolwire as tw
from toolwire.tools import Tool, ToolDefinitionError

from .helpers import ship


def test_a_tool_takes_name_description_and_parameters_positionally() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    tool = tw.Tool("weather", "The weather.", schema)
    assert (tool.name, tool.description, tool.parameters, tool.strict) == (
        "weather",
        "The weather.",
        schema,
        False,
    )
    assert tw.Tool("ping").parameters == {"type": "object", "properties": {}}


def test_a_tool_is_frozen_and_keeps_its_own_schema() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}
    tool = Tool("t", "", schema)
    schema["properties"].clear()  # the caller's dict
    tool.parameters["properties"].clear()  # a copy read from the tool
    assert "a" in tool.parameters["properties"]
    with pytest.raises(dataclasses.FrozenInstanceError, match="model_copy"):
        tool.name = "u"  # type: ignore[misc]
    assert tool == Tool("t", "", {"type": "object", "properties": {"a": {"type": "string"}}})


def test_parameters_that_are_not_an_object_schema_are_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="an object .* not type 'string'"):
        Tool("t", "", {"type": "string"})
    with pytest.raises(ToolDefinitionError, match="not type None"):
        Tool("t", "", {"description": "no type, no properties"})


def test_a_root_of_object_alternatives_is_a_tool_the_targets_get_as_one_object() -> None:
    """MCP servers publish a root anyOf (a zod union) without a type: accepted here, made
    one object for each target (tools.repair)."""
    Tool("t", "", {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]})


def test_a_tool_round_trips_through_json() -> None:
    tool = Tool.from_function(ship, strict=True)
    assert Tool.model_validate_json(tool.model_dump_json()) == tool


def test_read_file_tool_is_a_tool_that_still_binds_and_runs() -> None:
    assert isinstance(tw.read_file_tool, Tool)
    bound = tw.read_file_tool.bind("examples")
    assert isinstance(bound, Tool) and bound.name == "read_file" and bound.root == "examples"
    assert bound.parameters["required"] == ["path"]


def _schema(fn: Any) -> dict[str, Any]:
    return Tool.from_function(fn).parameters


def test_from_function_takes_name_first_paragraph_and_google_style_parameter_docs() -> None:
    tool = Tool.from_function(ship)
    assert tool.name == "ship"
    assert tool.description == "Ship a parcel."
    properties = tool.parameters["properties"]
    assert properties["parcel"]["description"] == "The parcel and where it goes."
    assert properties["insured"]["description"] == (
        "Whether to insure it; unset means the account's default."
    )
    assert "description" not in properties["copies"]


def test_from_function_writes_required_defaults_literal_optional_list_and_nested_models() -> None:
    schema = _schema(ship)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["required"] == ["parcel"]
    properties = schema["properties"]
    assert properties["speed"] == {
        "default": "air",
        "description": "How fast.",
        "enum": ["air", "sea"],
        "type": "string",
    }
    assert properties["insured"]["anyOf"] == [{"type": "boolean"}, {"type": "null"}]
    assert properties["copies"] == {"default": 1, "type": "integer"}
    assert properties["notes"]["anyOf"][0] == {"items": {"type": "string"}, "type": "array"}
    assert schema["$defs"]["Parcel"]["properties"]["to"] == {"$ref": "#/$defs/Address"}
    assert schema["$defs"]["Parcel"]["properties"]["items"]["minItems"] == 1
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"parcel": {"items": ["a"], "to": {"street": "Main"}}})
    assert not validator.is_valid({"parcel": {"items": [], "to": {"street": "Main"}}})
    assert not validator.is_valid({"parcel": {"items": ["a"], "to": {}}, "speed": "rail"})


def test_from_function_leaves_out_titles_but_keeps_a_property_named_title() -> None:
    def note(title: str, body: str = "") -> None:
        """Write a note."""

    schema = _schema(note)
    assert schema["properties"] == {
        "title": {"type": "string"},
        "body": {"default": "", "type": "string"},
    }
    assert "title" not in schema


def test_from_function_reads_numpy_and_sphinx_parameter_docs() -> None:
    def numpy_style(city: str, days: int = 1) -> None:
        """Forecast.

        Parameters
        ----------
        city : str
            The city.
        days : int
            How many days
            ahead.

        Returns
        -------
        None
        """

    def sphinx_style(city: str) -> None:
        """Forecast.

        :param str city: The city.
        :returns: nothing
        """

    properties = _schema(numpy_style)["properties"]
    assert properties["city"]["description"] == "The city."
    assert properties["days"]["description"] == "How many days ahead."
    assert _schema(sphinx_style)["properties"]["city"]["description"] == "The city."


def test_from_function_without_hints_or_docstring_takes_anything() -> None:
    def bare(x, *args, **kwargs):  # type: ignore[no-untyped-def]
        return x

    tool = Tool.from_function(bare, name="other", description="Given.")
    assert (tool.name, tool.description) == ("other", "Given.")
    assert tool.parameters == {"properties": {"x": {}}, "required": ["x"], "type": "object"}


def test_from_function_with_a_hint_it_cannot_resolve_says_so() -> None:
    def broken(x: Missing) -> None:  # type: ignore[name-defined]  # noqa: F821
        """Broken."""

    with pytest.raises(ToolDefinitionError, match="cannot read the type hints"):
        Tool.from_function(broken)


def test_from_function_keeps_literal_numbers_for_targets_that_take_them() -> None:
    def pick(level: Literal[1, 2, 3]) -> None:
        """Pick."""

    assert _schema(pick)["properties"]["level"] == {"enum": [1, 2, 3], "type": "integer"}


def test_an_annotated_field_description_survives_a_docstring_that_does_not_name_it() -> None:
    def note(text: Annotated[str, Field(description="A short note", max_length=50)], n: int) -> str:
        """Take a note.

        Args:
            n: How many times.
        """
        return text * n

    properties = Tool.from_function(note).parameters["properties"]
    assert properties["text"]["description"] == "A short note"  # type: ignore[index]
    assert properties["n"]["description"] == "How many times."  # type: ignore[index]
