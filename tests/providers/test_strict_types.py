"""The strict SDK validators reject what the SDK types do not declare (and accept the rest).

Each case pairs a payload the SDK's types accept with the same payload broken in one way, so
a rejection proves the validator sees that one defect, not that it rejects everything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from . import strict_anthropic, strict_openai_chat, strict_openai_responses


def chat(message: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [message]}


def groq(kwargs: dict[str, Any]) -> None:
    strict_openai_chat.validate(kwargs, "groq:llama-3.3-70b")


def responses(item: dict[str, Any]) -> dict[str, Any]:
    return {"input": [item]}


def anthropic(block: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [block]}]}


TOOL = {"role": "tool", "tool_call_id": "a", "content": "x"}
IMAGE_PART = {"type": "image_url", "image_url": {"url": "x"}}
AUDIO_PART = {"type": "input_audio", "input_audio": {"data": "x", "format": "wav"}}
OUTPUT = {"type": "function_call_output", "call_id": "a", "output": "x"}
USER_IMAGE = {"type": "input_image", "image_url": "x", "detail": "auto"}
CALL = {"type": "function_call", "call_id": "a", "name": "t", "arguments": "{}"}
RESULT = {"type": "tool_result", "tool_use_id": "a", "content": "x"}
PDF = {
    "type": "document",
    "source": {"type": "base64", "media_type": "application/pdf", "data": "x"},
}

CASES: list[tuple[str, Callable[[dict[str, Any]], None], dict[str, Any], dict[str, Any]]] = [
    ("chat: unknown key", strict_openai_chat.validate, chat(TOOL), chat({**TOOL, "name": "t"})),
    (
        "chat: image in a tool message",
        strict_openai_chat.validate,
        chat({"role": "user", "content": [IMAGE_PART]}),
        chat({**TOOL, "content": [IMAGE_PART]}),
    ),
    (
        "chat: audio format",
        strict_openai_chat.validate,
        chat({"role": "user", "content": [AUDIO_PART]}),
        chat(
            {
                "role": "user",
                "content": [{**AUDIO_PART, "input_audio": {"data": "x", "format": "ogg"}}],
            }
        ),
    ),
    (
        "chat: unknown parameter",
        strict_openai_chat.validate,
        {"messages": []},
        {"messages": [], "system": "x"},
    ),
    (
        "groq: no file part",
        groq,
        chat({"role": "user", "content": [IMAGE_PART]}),
        chat({"role": "user", "content": [{"type": "file", "file": {"file_id": "f"}}]}),
    ),
    ("groq: no audio part", groq, chat(TOOL), chat({"role": "user", "content": [AUDIO_PART]})),
    (
        "responses: unknown key",
        strict_openai_responses.validate,
        responses(OUTPUT),
        responses({**OUTPUT, "is_error": True}),
    ),
    (
        "responses: no audio in outputs",
        strict_openai_responses.validate,
        responses({**OUTPUT, "output": [{"type": "input_text", "text": "x"}]}),
        responses({**OUTPUT, "output": [{"type": "input_audio", "data": "x"}]}),
    ),
    (
        "responses: user images need detail",
        strict_openai_responses.validate,
        responses({"role": "user", "content": [USER_IMAGE]}),
        responses({"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}),
    ),
    (
        "responses: arguments are a string",
        strict_openai_responses.validate,
        responses(CALL),
        responses({**CALL, "arguments": {}}),
    ),
    (
        "responses: unknown parameter",
        strict_openai_responses.validate,
        {"input": [], "instructions": "x"},
        {"input": [], "system": "x"},
    ),
    (
        "anthropic: unknown key",
        strict_anthropic.validate,
        anthropic(RESULT),
        anthropic({**RESULT, "status": "error"}),
    ),
    (
        "anthropic: unknown key in a text block",
        strict_anthropic.validate,
        anthropic({"type": "text", "text": "x"}),
        anthropic({"type": "text", "text": "x", "title": "t"}),
    ),
    (
        "anthropic: base64 documents are PDFs",
        strict_anthropic.validate,
        anthropic({**RESULT, "content": [PDF]}),
        anthropic(
            {**RESULT, "content": [{**PDF, "source": {**PDF["source"], "media_type": "audio/wav"}}]}
        ),
    ),
    (
        "anthropic: no audio block",
        strict_anthropic.validate,
        anthropic({**RESULT, "content": [{"type": "text", "text": "x"}]}),
        anthropic({**RESULT, "content": [{"type": "audio", "data": "x"}]}),
    ),
    (
        "anthropic: unknown parameter",
        strict_anthropic.validate,
        {"messages": [], "system": "x"},
        {"messages": [], "instructions": "x"},
    ),
]


@pytest.mark.parametrize(
    ("validate", "good", "bad"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_validators_accept_the_sdk_shape_and_reject_one_defect(
    validate: Callable[[dict[str, Any]], None], good: dict[str, Any], bad: dict[str, Any]
) -> None:
    validate(good)
    with pytest.raises(ValueError):
        validate(bad)
