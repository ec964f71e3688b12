"""Targets, sample tools, and whole-request validation for the tool tests."""

from __future__ import annotations

import importlib
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolwire.capability import capabilities
from toolwire.readers import read_file_tool
from toolwire.tools import Tool

from .sdk_tools import EXTRA, split_google

#: One model per provider in the capability table.
MODELS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai": "openai:gpt-5",
    "openai-chat": "openai-chat:gpt-5-mini",
    "google": "google:gemini-3-pro-preview",
    "google-vertex": "google-vertex:gemini-2.5-flash",
    "bedrock": "bedrock:anthropic.claude-sonnet-4-5-v1:0",
    "groq": "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "mistral": "mistral:mistral-large-latest",
    "xai": "xai:grok-4",
    "openrouter": "openrouter:openai/gpt-5",
    "ollama": "ollama:qwen3-vl",
    "cohere": "cohere:command-a-vision",
    "openai-compatible": "openai-compatible:qwen",
}
#: Wires whose strict validator takes the model too.
TAKES_MODEL = {"google", "bedrock", "openai_chat"}


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str | None = None


class Parcel(BaseModel):
    """What goes in the box."""

    items: list[str] = Field(min_length=1)
    to: Address


def ship(
    parcel: Parcel,
    speed: Literal["air", "sea"] = "air",
    insured: bool | None = None,
    copies: int = 1,
    notes: list[str] | None = None,
) -> str:
    """Ship a parcel.

    Anything after the first paragraph stays in the code.

    Args:
        parcel: The parcel and where it goes.
        speed: How fast.
        insured: Whether to insure it;
            unset means the account's default.
    """
    return "shipped"


def screenshot() -> bytes:
    """Take a screenshot of the screen."""
    return b""


def sample_tools(strict: bool = False) -> list[Tool]:
    """A typed function's tool (nested models, Literal, Optional, lists, defaults), a tool
    without arguments, read_file, and a hand-written schema with $defs and
    additionalProperties."""
    lookup = Tool(
        "lookup",
        "Look a key up.",
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"key": {"$ref": "#/$defs/Key", "description": "The key."}},
            "required": ["key"],
            "additionalProperties": False,
            "$defs": {"Key": {"type": "string", "minLength": 1, "examples": ["a"]}},
        },
        strict=strict,
    )
    return [
        Tool.from_function(ship, strict=strict),
        Tool.from_function(screenshot, strict=strict),
        read_file_tool if not strict else read_file_tool.model_copy(update={"strict": True}),
        lookup,
    ]


def with_fragment(base: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """``base`` kwargs with a tools fragment merged in (Gemini's into ``config``)."""
    merged = {**base, **fragment}
    if "config" in fragment and "config" in base:
        merged["config"] = {**base["config"], **fragment["config"]}
    return merged


def validate(kwargs: dict[str, Any], model: str) -> None:
    """Raise unless ``kwargs`` fit the target SDK's request types strictly, tools included."""
    wire = capabilities(model).wire
    strict = importlib.import_module(f"providers.strict_{wire}")
    if wire == "google":
        strict.validate(split_google(kwargs, model), model)
    elif wire in TAKES_MODEL:
        strict.validate(kwargs, model)
    else:
        strict.validate(kwargs)
    if wire in EXTRA:
        EXTRA[wire](kwargs)


def first_tool_spec(kwargs: dict[str, Any], wire: str) -> dict[str, Any]:
    """The innermost dict describing the first tool, where an unknown key must be refused."""
    if wire == "google":
        spec: dict[str, Any] = kwargs["config"]["tools"][0]["function_declarations"][0]
    elif wire == "bedrock":
        spec = kwargs["toolConfig"]["tools"][0]["toolSpec"]
    elif wire in ("openai_chat", "mistral", "cohere", "ollama"):
        spec = kwargs["tools"][0]["function"]
    else:
        spec = kwargs["tools"][0]
    return spec
