"""``Tool``: a tool the model may call — a name, a description and a JSON Schema.

The definition is provider-neutral; ``encode(..., tools=[...])`` spells it for the target
(``toolwire.tools.spell``). Build one by hand, from a typed Python function
(``Tool.from_function``), or from an MCP server's listing (``tools_from_mcp``).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator

from ..content import JsonValue
from . import docstrings
from .errors import ToolDefinitionError
from .schema import check_shape, drop_titles


def no_arguments() -> dict[str, JsonValue]:
    """The schema of a tool that takes no arguments."""
    return {"type": "object", "properties": {}}


class Tool(BaseModel):
    """A tool the model may call: ``Tool(name, description, parameters)``.

    ``parameters`` is a JSON Schema of type object (the tool's named arguments); reading it
    gives a fresh copy, so editing what you read never changes the tool. ``strict=True``
    asks for OpenAI's strict mode (Chat Completions and Responses: the arguments always match
    the schema; optional arguments arrive as ``null``); other targets get the schema as is.
    ``strict="auto"`` asks for it where the schema fits strict mode's rules, and sends the
    tool without it, with a note (``Request.tool_notes``), where it does not.

    >>> weather = Tool("weather", "The weather in a city.",
    ...                {"type": "object", "properties": {"city": {"type": "string"}},
    ...                 "required": ["city"]})
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    description: str = ""
    parameters: dict[str, JsonValue] = Field(default_factory=no_arguments)
    strict: bool | Literal["auto"] = False

    # Type checkers see how a program builds one; pydantic also calls ``__init__`` with the
    # fields of a stored tool (and rejects unknown ones), which the run-time signature takes.
    if TYPE_CHECKING:

        def __init__(
            self,
            name: str,
            description: str = "",
            parameters: Mapping[str, object] | None = None,
            *,
            strict: bool | Literal["auto"] = False,
        ) -> None: ...

    else:

        def __init__(
            self,
            name: str,
            description: str = "",
            parameters: Mapping[str, object] | None = None,
            **fields: object,
        ) -> None:
            schema = no_arguments() if parameters is None else parameters
            super().__init__(name=name, description=description, parameters=schema, **fields)

    @field_validator("parameters", mode="after")
    @classmethod
    def _an_object_schema(
        cls, schema: dict[str, JsonValue], info: ValidationInfo
    ) -> dict[str, JsonValue]:
        kind = schema.get("type")
        composed = any(key in schema for key in _OBJECT_BY_PARTS)
        if kind != "object" and not (kind is None and composed):
            raise ToolDefinitionError(
                f"a tool's parameters must be a JSON Schema of an object (its named "
                f"arguments), not type {kind!r}. Wrap a single value in an object property."
            )
        check_shape(schema, str(info.data.get("name", "?")))  # before any recursive walk
        return copy.deepcopy(schema)  # the tool keeps its own: the caller may edit theirs

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(
            f"cannot assign to {name!r}: a {type(self).__name__} is a frozen value; "
            "use .model_copy(update={...}) for a changed copy"
        )

    @classmethod
    def from_function(
        cls,
        fn: Callable[..., object],
        *,
        name: str | None = None,
        description: str | None = None,
        strict: bool | Literal["auto"] = False,
    ) -> Tool:
        """The tool for ``fn``: its name, its docstring's first paragraph, and a schema built
        by pydantic from its type hints (defaults, ``Optional``, ``Literal``, lists, pydantic
        models) with each parameter's doc from a Google, NumPy or Sphinx docstring.

        Examples:
            >>> def weather(city: str, unit: Literal["C", "F"] = "C") -> dict:
            ...     '''The weather in a city.
            ...
            ...     Args:
            ...         city: The city's name.
            ...     '''
            >>> Tool.from_function(weather).parameters["required"]
            ['city']
        """
        summary, docs = docstrings.parse(fn)
        fields: dict[str, Any] = {}
        for param in inspect.signature(fn).parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            hint = Any if param.annotation is param.empty else param.annotation
            default = ... if param.default is param.empty else param.default
            doc = docs.get(param.name)  # else an Annotated[..., Field(description=...)] speaks
            fields[param.name] = (hint, Field(default, description=doc) if doc else Field(default))
        hints = _resolved_hints(fn)
        fields = {k: (hints.get(k, hint), info) for k, (hint, info) in fields.items()}
        model = create_model(f"{getattr(fn, '__name__', 'tool')}_arguments", **fields)
        schema = drop_titles(model.model_json_schema())
        schema.pop("description", None)
        schema.setdefault("properties", {})
        return cls(
            name or fn.__name__,
            summary if description is None else description,
            schema,
            strict=strict,
        )


def _resolved_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """Type hints with string annotations (``from __future__ import annotations``) resolved."""
    import typing

    try:
        return typing.get_type_hints(fn, include_extras=True)
    except (NameError, TypeError) as exc:
        raise ToolDefinitionError(
            f"cannot read the type hints of {getattr(fn, '__qualname__', fn)!r} ({exc}); "
            "import the types it names at module level."
        ) from exc


#: Keywords by which a schema without ``type`` still describes an object of arguments (MCP
#: servers publish a root ``anyOf`` of objects, or bare ``properties``): tools.repair makes it
#: one object for each target.
_OBJECT_BY_PARTS = ("properties", "anyOf", "oneOf", "allOf", "$ref")


def _copied_parameters(self: Tool) -> dict[str, JsonValue]:
    parameters: dict[str, JsonValue] = self.__dict__["parameters"]
    return copy.deepcopy(parameters)


# Reading ``parameters`` gives a fresh copy (set after the class is built, so pydantic still
# stores and validates the field as usual; instances keep the value in ``__dict__``).
type.__setattr__(Tool, "parameters", property(_copied_parameters))
