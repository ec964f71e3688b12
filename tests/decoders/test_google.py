"""Decoding Gemini ``GenerateContentResponse`` objects: thought signatures kept where they came."""

from __future__ import annotations

import base64

from google.genai import types
from providers import strict_anthropic, strict_google

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import (
    GEMINI_SIGNATURE,
    GEMINI_TEXT_SIGNATURE,
    anthropic_thinking_message,
    conversation,
    gemini_parallel_calls,
    gemini_response,
)

MODEL = "google:gemini-3-pro-preview"
SIGNATURE_TEXT = base64.b64encode(GEMINI_SIGNATURE).decode()


def reencoded(*replies: object, model: str = MODEL) -> dict:
    """The kwargs for ``model`` of the question, each decoded reply and its results."""
    kwargs = encode(conversation(*(decode(r, model) for r in replies)), model).kwargs
    strict_google.validate(kwargs, model)
    return kwargs


def test_the_signature_of_a_parallel_batch_stays_on_its_first_call() -> None:
    message = decode(gemini_parallel_calls(), MODEL)
    assert message.content == (
        ToolCall(
            id="fc-1",
            name="read_file",
            arguments={"path": "notes.md"},
            signature=SIGNATURE_TEXT,
            provider="google",
        ),
        ToolCall(id="fc-2", name="read_file", arguments={"path": "report.pdf"}),
    )


def test_parallel_calls_go_back_with_the_same_signature_bytes_on_the_first_call_only() -> None:
    kwargs = reencoded(gemini_parallel_calls())
    assert kwargs["contents"][1] == {
        "role": "model",
        "parts": [
            {
                "function_call": {"id": "fc-1", "name": "read_file", "args": {"path": "notes.md"}},
                "thought_signature": GEMINI_SIGNATURE,
            },
            {"function_call": {"id": "fc-2", "name": "read_file", "args": {"path": "report.pdf"}}},
        ],
    }
    responses = [p["function_response"] for p in kwargs["contents"][2]["parts"]]
    assert [(r["id"], r["name"]) for r in responses] == [
        ("fc-1", "read_file"),
        ("fc-2", "read_file"),
    ]


def test_a_signature_on_a_text_part_goes_back_on_that_text_part() -> None:
    response = gemini_response(
        types.Part(text="notes.md holds notes.", thought_signature=GEMINI_TEXT_SIGNATURE)
    )
    message = decode(response, MODEL)
    assert message.content == (
        Thinking(
            text="", signature=base64.b64encode(GEMINI_TEXT_SIGNATURE).decode(), provider="google"
        ),
        Text(text="notes.md holds notes."),
    )
    kwargs = reencoded(response)
    assert kwargs["contents"][1] == {
        "role": "model",
        "parts": [{"text": "notes.md holds notes.", "thought_signature": GEMINI_TEXT_SIGNATURE}],
    }


def test_a_signature_on_an_empty_final_part_goes_back_on_an_empty_text_part() -> None:
    """Gemini can close a streamed or plain answer with a part holding only the signature."""
    response = gemini_response(
        types.Part(text="Done."), types.Part(text="", thought_signature=GEMINI_TEXT_SIGNATURE)
    )
    kwargs = reencoded(response)
    assert kwargs["contents"][1]["parts"] == [
        {"text": "Done."},
        {"text": "", "thought_signature": GEMINI_TEXT_SIGNATURE},
    ]


def test_thought_parts_become_thinking_and_signed_ones_go_back_as_thoughts() -> None:
    response = gemini_response(
        types.Part(
            text="**Planning** read both.", thought=True, thought_signature=GEMINI_TEXT_SIGNATURE
        ),
        types.Part(text="Reading both files."),
    )
    message = decode(response, MODEL)
    assert message.content == (
        Thinking(
            text="**Planning** read both.",
            signature=base64.b64encode(GEMINI_TEXT_SIGNATURE).decode(),
            provider="google",
        ),
        Text(text="Reading both files."),
    )
    assert reencoded(response)["contents"][1]["parts"] == [
        {
            "text": "**Planning** read both.",
            "thought": True,
            "thought_signature": GEMINI_TEXT_SIGNATURE,
        },
        {"text": "Reading both files."},
    ]


def test_the_json_dict_decodes_like_the_object_and_gives_back_the_same_bytes() -> None:
    """google-genai dumps bytes as url-safe base64 in JSON mode; the REST API uses camelCase."""
    response = gemini_parallel_calls()
    dumped = response.model_dump(mode="json", exclude_none=True)
    rest = response.model_dump(mode="json", exclude_none=True, by_alias=True)
    url_safe = dumped["candidates"][0]["content"]["parts"][0]["thought_signature"]
    assert url_safe != SIGNATURE_TEXT  # the two alphabets really differ for these bytes
    assert "functionCall" in rest["candidates"][0]["content"]["parts"][0]
    assert decode(dumped, MODEL) == decode(rest, MODEL) == decode(response, MODEL)
    part = reencoded(dumped)["contents"][1]["parts"][0]
    assert part["thought_signature"] == GEMINI_SIGNATURE


def test_calls_without_ids_get_ids_that_the_function_responses_echo() -> None:
    message = decode(gemini_parallel_calls(ids=False), MODEL)
    ids = [c.id for c in message.tool_calls]
    assert len(set(ids)) == 2 and all(i.startswith("call_") for i in ids)
    assert decode(gemini_parallel_calls(ids=False), MODEL) == message  # stable
    kwargs = reencoded(gemini_parallel_calls(ids=False))
    responses = [p["function_response"]["id"] for p in kwargs["contents"][2]["parts"]]
    assert responses == ids


def test_history_from_anthropic_gets_the_placeholder_signature_on_gemini_3_only() -> None:
    claude = decode(anthropic_thinking_message(), "anthropic:claude-sonnet-4-5")
    for model, expected in [
        (MODEL, base64.urlsafe_b64decode("skip_thought_signature_validator")),
        ("google:gemini-2.5-flash", None),
    ]:
        kwargs = encode(conversation(claude), model).kwargs
        strict_google.validate(kwargs, model)
        model_parts = kwargs["contents"][1]["parts"]
        assert [p.get("thought_signature") for p in model_parts] == [None, expected, None]
        assert all("thought" not in p for p in model_parts)  # Claude's thinking is dropped


def test_gemini_signatures_are_not_sent_to_anthropic() -> None:
    message = decode(gemini_parallel_calls(), MODEL)
    kwargs = encode(conversation(message), "anthropic:claude-sonnet-4-5").kwargs
    strict_anthropic.validate(kwargs)
    assert kwargs["messages"][1]["content"] == [
        {"type": "tool_use", "id": "fc-1", "name": "read_file", "input": {"path": "notes.md"}},
        {"type": "tool_use", "id": "fc-2", "name": "read_file", "input": {"path": "report.pdf"}},
    ]


def test_vertex_signatures_go_back_to_vertex_but_not_to_the_gemini_api() -> None:
    vertex = "google-vertex:gemini-3-pro-preview"
    message = decode(gemini_parallel_calls(), vertex)
    assert message.tool_calls[0].provider == "google-vertex"
    back = encode(conversation(message), vertex).kwargs["contents"][1]["parts"][0]
    assert back["thought_signature"] == GEMINI_SIGNATURE
    elsewhere = encode(conversation(message), MODEL).kwargs["contents"][1]["parts"][0]
    assert elsewhere["thought_signature"] == base64.urlsafe_b64decode(
        "skip_thought_signature_validator"
    )
