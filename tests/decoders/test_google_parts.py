"""Gemini parts with neither text nor a function call: images, code execution, server tools.

Each is a ProviderPart holding the part with its thought signature, and goes back to Gemini
unchanged and in place; no empty text is made up for it. Replies are google-genai
``GenerateContentResponse`` objects (or the REST API's camelCase JSON); requests pass the
SDK's strict types (``strict_google``).
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from google.genai import types
from providers import strict_anthropic, strict_google

from toolwire.content import ProviderPart, Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.errors import InvalidFileError
from toolwire.messages import ToolResult, User
from toolwire.request import encode

from .responses import GEMINI_SIGNATURE, gemini_response

GEMINI = "google:gemini-3-pro-preview"
IMAGE_MODEL = "google:gemini-3-pro-image-preview"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
SIGNATURE_TEXT = base64.b64encode(GEMINI_SIGNATURE).decode()


def image_part() -> types.Part:
    return types.Part(
        inline_data=types.Blob(mime_type="image/png", data=PNG), thought_signature=GEMINI_SIGNATURE
    )


def sent(history: list[Any], model: str = GEMINI) -> dict[str, Any]:
    kwargs = encode(history, model).kwargs
    if model.startswith("google"):
        strict_google.validate(kwargs, model)
    else:
        strict_anthropic.validate(kwargs)
    return kwargs


def test_an_image_reply_is_the_image_with_its_signature_and_no_made_up_text() -> None:
    (part,) = decode(gemini_response(image_part()), IMAGE_MODEL).content
    assert part == ProviderPart(
        provider="google",
        wire="google",
        kind="inline_data",
        data={
            "inline_data": {"mime_type": "image/png", "data": base64.b64encode(PNG).decode()},
            "thought_signature": SIGNATURE_TEXT,
        },
    )


def test_the_rest_api_s_camel_case_reply_decodes_alike() -> None:
    inline = {"mimeType": "image/png", "data": base64.b64encode(PNG).decode()}
    rest = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"inlineData": inline, "thoughtSignature": SIGNATURE_TEXT}],
                },
                "finishReason": "STOP",
            }
        ]
    }
    assert decode(rest, IMAGE_MODEL) == decode(gemini_response(image_part()), IMAGE_MODEL)


def test_the_image_goes_back_to_gemini_as_it_came() -> None:
    reply = decode(gemini_response(image_part()), IMAGE_MODEL)
    kwargs = sent([User("Draw a dot."), reply, User("Make it blue.")], IMAGE_MODEL)
    assert kwargs["contents"][1] == {
        "role": "model",
        "parts": [
            {
                "inline_data": {"mime_type": "image/png", "data": PNG},
                "thought_signature": GEMINI_SIGNATURE,
            }
        ],
    }


def code_execution_reply() -> Any:
    return gemini_response(
        types.Part(text="I will compute it.", thought_signature=GEMINI_SIGNATURE),
        types.Part(
            executable_code=types.ExecutableCode(
                language=types.Language.PYTHON, code="print(sum(range(101)))"
            )
        ),
        types.Part(
            code_execution_result=types.CodeExecutionResult(
                outcome=types.Outcome.OUTCOME_OK, output="5050\n"
            )
        ),
        types.Part(text="The sum is 5050."),
    )


def test_code_and_its_result_stay_between_the_texts() -> None:
    reply = decode(code_execution_reply(), GEMINI)
    kinds = [getattr(p, "kind", type(p).__name__) for p in reply.content]
    assert kinds == ["Thinking", "Text", "executable_code", "code_execution_result", "Text"]
    kwargs = sent([User("Sum 1..100."), reply, User("Now 1..1000.")])
    assert kwargs["contents"][1]["parts"] == [
        {"text": "I will compute it.", "thought_signature": GEMINI_SIGNATURE},
        {"executable_code": {"language": "PYTHON", "code": "print(sum(range(101)))"}},
        {"code_execution_result": {"outcome": "OUTCOME_OK", "output": "5050\n"}},
        {"text": "The sum is 5050."},
    ]


def test_a_server_tool_s_call_and_response_keep_their_signature_beside_a_function_call() -> None:
    reply = gemini_response(
        types.Part(
            tool_call=types.ToolCall(
                id="srv1", tool_type="GOOGLE_SEARCH_WEB", args={"queries": ["weather Paris"]}
            ),
            thought_signature=GEMINI_SIGNATURE,
        ),
        types.Part(
            tool_response=types.ToolResponse(
                id="srv1", tool_type="GOOGLE_SEARCH_WEB", response={"search_suggestions": "…"}
            )
        ),
        types.Part(
            function_call=types.FunctionCall(id="fc1", name="book_taxi", args={"to": "Orly"})
        ),
    )
    decoded = decode(reply, GEMINI)
    assert [type(p) for p in decoded.content] == [ProviderPart, ProviderPart, ToolCall]
    history = [User("Rainy? Book a taxi."), decoded, ToolResult.of("fc1", "book_taxi", "booked")]
    parts = sent(history)["contents"][1]["parts"]
    assert parts[0]["thought_signature"] == GEMINI_SIGNATURE
    assert parts[0]["tool_call"] == {
        "id": "srv1",
        "tool_type": "GOOGLE_SEARCH_WEB",
        "args": {"queries": ["weather Paris"]},
    }
    assert parts[1] == {
        "tool_response": {
            "id": "srv1",
            "tool_type": "GOOGLE_SEARCH_WEB",
            "response": {"search_suggestions": "…"},
        }
    }


def test_another_provider_gets_the_texts_without_gemini_s_parts() -> None:
    reply = decode(code_execution_reply(), GEMINI)
    assert Text(text="The sum is 5050.") in reply.content
    assert not any(isinstance(p, Thinking) and not p.signature for p in reply.content)
    messages = sent([User("Sum 1..100."), reply, User("Thanks.")], "anthropic:claude-sonnet-4-5")
    assert messages["messages"][1]["content"] == [
        {"type": "text", "text": "I will compute it."},
        {"type": "text", "text": "The sum is 5050."},
    ]


def test_the_image_is_a_file_another_provider_can_be_shown() -> None:
    (part,) = decode(gemini_response(image_part()), IMAGE_MODEL).content
    assert isinstance(part, ProviderPart)
    image = part.file()
    assert image is not None and image.read() == PNG and image.media_type == "image/png"
    kwargs = sent([User(["Describe the image you drew.", image])], "anthropic:claude-sonnet-4-5")
    assert kwargs["messages"][0]["content"][1]["type"] == "image"


def test_a_part_without_a_file_has_none_and_broken_data_is_named() -> None:
    reply = decode(code_execution_reply(), GEMINI)
    assert all(p.file() is None for p in reply.content if isinstance(p, ProviderPart))
    broken = ProviderPart(
        provider="google",
        wire="google",
        kind="inline_data",
        data={"inline_data": {"mime_type": "image/png", "data": "not base64!"}},
    )
    with pytest.raises(InvalidFileError, match="inline_data part's data is not base64"):
        broken.file()
