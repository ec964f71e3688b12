"""The shared conformance suite: every target × model row × media type × source × position.

For each cell of capabilities.toml that a real example file can exercise, the planner's
decision must be what the table implies and the payload must pass the wire's strict SDK
validator (tests/providers/strict_<wire>.py); where the table has no route, encoding must
raise UnsupportedContentError naming the file. A new provider or model row is picked up
automatically: it fails ``test_every_provider_and_model_row_has_a_representative`` until a
representative model is listed below, and a new wire fails until it has a strict validator.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from toolwire.capability import capabilities, providers, variants
from toolwire.content import File, Text, ToolCall
from toolwire.errors import UnsupportedContentError
from toolwire.messages import Assistant, ToolResult, User
from toolwire.request import encode

from .conftest import expected_mode

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: One model per row of each target (the first is the target's safe defaults).
REPRESENTATIVES = {
    "anthropic": ["claude-sonnet-4-5"],
    "openai": ["gpt-5", "gpt-5-mini", "gpt-5.2"],
    "openai-chat": ["gpt-5-mini", "gpt-4o-audio-preview", "gpt-4.1", "gpt-5.2"],
    "google": ["gemini-2.5-flash", "gemini-3-pro-preview"],
    "google-vertex": ["gemini-2.5-pro", "gemini-3.1-pro"],
    "bedrock": [
        "cohere.command-r-plus-v1:0",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "amazon.nova-pro-v1:0",
        "us.amazon.nova-micro-v1:0",
        "us.anthropic.claude-3-5-haiku-20241022-v1:0",
        "meta.llama4-maverick-17b-instruct-v1:0",
        "mistral.pixtral-large-2502-v1:0",
    ],
    "groq": ["meta-llama/llama-4-scout-17b-16e-instruct"],
    "xai": ["grok-4"],
    "openrouter": ["anthropic/claude-sonnet-4.5", "openai/gpt-4o-audio-preview"],
    "openai-compatible": ["qwen3"],
    "mistral": ["mistral-large-latest"],
    "cohere": ["command-r-plus", "command-a-vision-07-2025"],
    "ollama": ["llama3.1:8b", "llama3.2-vision", "gemma3:1b"],
}
MODELS = [f"{p}:{m}" for p, models in REPRESENTATIVES.items() for m in models]
SOURCES = ("bytes", "url", "file_id")
POSITIONS = ("tool_result", "user_message")


@cache
def samples() -> dict[str, Path]:
    """Media type → one real example file of that type (examples/ and examples/formats/)."""
    found: dict[str, Path] = {}
    for path in sorted(EXAMPLES.rglob("*")):
        if path.is_file() and path.suffix not in (".py", ".pyc") and path.name != "README.md":
            found.setdefault(File.from_path(path).media_type, path)
    return found


def sample_file(media_type: str, source: str, model: str) -> File:
    path = samples()[media_type]
    if source == "bytes":
        return File.from_bytes(path.read_bytes(), media_type, name=path.name)
    if source == "url":
        return File.from_url(f"https://example.com/files/{path.name}", media_type)
    caps = capabilities(model)
    return File.from_provider_file(caps.file_ids or caps.provider, "file-abc123", media_type)


@cache
def validator(wire: str) -> Callable[[dict[str, Any], str], None]:
    """The wire's strict validator, called as validate(kwargs, model) whatever its signature."""
    module = importlib.import_module(f"providers.strict_{wire}")
    validate = module.validate
    if len(inspect.signature(validate).parameters) == 1:
        return lambda kwargs, model: validate(kwargs)
    return validate  # type: ignore[no-any-return]


def expected(model: str, file: File, position: str) -> str | None:
    caps = capabilities(model)
    if position == "tool_result":
        return expected_mode(caps, file)
    cell = caps.cell(file.media_type)
    if cell is None:
        return None
    return "native" if _source_kind(file, caps.file_ids) in cell.user_sources else None


def _source_kind(file: File, file_ids: str | None) -> str:
    from toolwire.sources import ProviderFileSource, UrlSource

    if isinstance(file.source, UrlSource):
        return file.source.scheme
    if isinstance(file.source, ProviderFileSource):
        return "file_id" if file.source.provider == file_ids else "foreign"
    return "bytes"


def conversation(file: File, position: str) -> list[Any]:
    if position == "user_message":
        return [User([Text(text="Here is the file."), file])]
    call = ToolCall(id="call_1", name="fetch", arguments={})
    return [User("Fetch it."), Assistant([call]), ToolResult.of("call_1", "fetch", file)]


def cases() -> list[Any]:
    return [
        pytest.param(
            model, media_type, source, position, id=f"{model}-{media_type}-{source}-{position}"
        )
        for model in MODELS
        for media_type in sorted(samples())
        for source in SOURCES
        for position in POSITIONS
    ]


def test_every_provider_and_model_row_has_a_representative() -> None:
    assert sorted(REPRESENTATIVES) == providers()
    for provider, models in REPRESENTATIVES.items():
        rows = {row for m in models for row in capabilities(f"{provider}:{m}").rows}
        wanted = {caps.rows[0] for caps in variants(provider)[1:]}
        assert rows == wanted, f"{provider}: add a representative model for {wanted - rows}"


def test_every_wire_has_a_strict_validator_that_rejects_an_unknown_key() -> None:
    for provider in providers():
        caps = capabilities(f"{provider}:{REPRESENTATIVES[provider][0]}")
        model = f"{provider}:{REPRESENTATIVES[provider][0]}"
        kwargs = encode([User("hello")], model).kwargs
        validator(caps.wire)(kwargs, model)
        broken = {**kwargs, "messages_typo": []}
        with pytest.raises(Exception):  # noqa: B017  any validation error will do
            validator(caps.wire)(broken, model)


@pytest.mark.parametrize(("model", "media_type", "source", "position"), cases())
def test_the_table_decides_and_the_payload_is_valid(
    model: str, media_type: str, source: str, position: str
) -> None:
    file = sample_file(media_type, source, model)
    messages = conversation(file, position)
    mode = expected(model, file, position)
    if mode is None:
        with pytest.raises(UnsupportedContentError) as info:
            encode(messages, model)
        assert [f.identifier for f in info.value.files] == [file.identifier]
        return
    request = encode(messages, model)
    assert [(d.identifier, d.mode) for d in request.decisions] == [(file.identifier, mode)]
    validator(capabilities(model).wire)(request.kwargs, model)
