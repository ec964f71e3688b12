"""Hostile and odd tool schemas (an MCP server is untrusted) on every dialect: each ends in a
request or a ToolDefinitionError, never another exception (issue 31, item 4).

Hypothesis builds schemas from JSON Schema's keywords with values of the right and the wrong
shapes (a ``type`` that is a number, ``properties`` that is a list, ``required`` naming
nothing, references to nowhere or to themselves), nested a few levels.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire as tw
from toolwire.tools import Tool, ToolDefinitionError

from .helpers import MODELS

TARGETS = [*MODELS.values(), "bedrock:us.amazon.nova-pro-v1:0"]
NAMES = st.sampled_from(["a", "b", "$x", "page size", "tags[]", "städte", "1st", "x" * 70])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=5), st.floats(allow_nan=False)
)
TYPES = st.one_of(
    st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null"]),
    st.lists(st.sampled_from(["string", "null", "array"]), max_size=3),
    SCALARS,
)


def schemas(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.fixed_dictionaries(
        {}, optional={"type": TYPES, "enum": st.lists(SCALARS, max_size=3)}
    )
    if depth == 0:
        return leaf
    inner = schemas(depth - 1)
    keywords = {
        "type": TYPES,
        "properties": st.one_of(
            st.dictionaries(NAMES, inner, max_size=3), st.lists(inner, max_size=2)
        ),
        "required": st.one_of(st.lists(NAMES, max_size=3), SCALARS),
        "items": st.one_of(inner, st.lists(inner, max_size=2), st.booleans()),
        "prefixItems": st.lists(inner, max_size=2),
        "anyOf": st.one_of(st.lists(inner, max_size=3), SCALARS),
        "oneOf": st.lists(inner, max_size=2),
        "allOf": st.lists(inner, max_size=2),
        "additionalProperties": st.one_of(st.booleans(), inner),
        "$ref": st.sampled_from(
            ["#/$defs/A", "#/$defs/missing", "#", "https://x/y", "#/properties/a"]
        ),
        "$defs": st.dictionaries(st.just("A"), inner, max_size=1),
        "format": st.sampled_from(["uri", "date-time", "binary", "email"]),
        "not": inner,
        "description": st.text(max_size=10),
        "minLength": st.integers(0, 3),
        "uniqueItems": st.booleans(),
    }
    return st.one_of(leaf, st.fixed_dictionaries({}, optional=keywords))


@settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(schema=schemas(3), strict=st.sampled_from([False, True, "auto"]))
@pytest.mark.slow
def test_any_schema_ends_in_a_request_or_a_tool_definition_error(schema: Any, strict: Any) -> None:
    parameters = {"type": "object", "properties": {"p": schema}} if isinstance(schema, dict) else {}
    if isinstance(schema, dict) and any(k in schema for k in ("anyOf", "oneOf", "allOf")):
        parameters = {k: v for k, v in schema.items() if k != "type"}  # a root composition
    try:
        tool = Tool("fuzzed", "A fuzzed tool.", parameters, strict=strict)
    except ToolDefinitionError:
        return
    for model in TARGETS:
        with contextlib.suppress(ToolDefinitionError):
            tw.encode([tw.User("hi")], model, tools=[tool])
