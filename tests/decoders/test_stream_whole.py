"""Streaming a reply and decoding it whole give the same Assistant, wherever the stream cuts
its texts and argument JSON (byte-identical signatures, the same calls), and the same
request back to the provider."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.decoders import as_dict, decode
from toolwire.decoders.stream import StreamDecoder, decode_stream
from toolwire.request import encode

from . import streamers
from .responses import anthropic_thinking_message, conversation, gemini_parallel_calls
from .test_bedrock import CONTENT, converse
from .test_bedrock import MODEL as BEDROCK
from .test_cohere import reply as cohere_reply
from .test_mistral import reply as mistral_reply
from .test_ollama import reply as ollama_reply
from .test_openai_responses import reply as responses_reply

OPENROUTER = "openrouter:google/gemini-3-pro-preview"
OPENROUTER_REPLY = {
    "id": "gen-1764000000-abc",
    "created": 1764000000,
    "model": "google/gemini-3-pro-preview",
    "object": "chat.completion",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": "Reading both files.",
                "reasoning_details": [
                    {
                        "type": "reasoning.text",
                        "text": "Read both.",
                        "format": "google-gemini-v1",
                        "index": 0,
                    },
                    {
                        "type": "reasoning.encrypted",
                        "data": "CiQBjz1rX2s=",
                        "format": "google-gemini-v1",
                    },
                ],
                "tool_calls": [
                    {
                        "id": "tool_0",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": '{"path":"notes.md"}'},
                    },
                    {
                        "id": "tool_1",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": '{"path":"report.pdf"}'},
                    },
                ],
            },
        }
    ],
    "usage": {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52},
}


def gemini_signed_text() -> Any:
    from google.genai import types

    from .responses import GEMINI_TEXT_SIGNATURE, gemini_response

    return gemini_response(
        types.Part(text="**Plan** read it.", thought=True),
        types.Part(text="notes.md holds notes.", thought_signature=GEMINI_TEXT_SIGNATURE),
        types.Part(text="", thought_signature=GEMINI_TEXT_SIGNATURE),
    )


def cohere_with_content() -> Any:
    """Cohere's reply of the decoder tests, with a thinking and a text item beside its plan."""
    from cohere import TextAssistantMessageResponseContentItem as Text
    from cohere import ThinkingAssistantMessageResponseContentItem as Thought

    response = cohere_reply()
    content = [Thought(type="thinking", thinking="Two files."), Text(type="text", text="Reading.")]
    message = response.message.model_copy(update={"content": content})
    return response.model_copy(update={"message": message})


#: model → (the whole reply, the streamer of its wire)
REPLIES = {
    "anthropic:claude-sonnet-4-5": (anthropic_thinking_message, streamers.anthropic),
    OPENROUTER: (lambda: OPENROUTER_REPLY, streamers.openai_chat),
    "openai:gpt-5": (responses_reply, streamers.openai_responses),
    "google:gemini-3-pro-preview": (gemini_parallel_calls, streamers.google),
    "google-vertex:gemini-3-pro-preview": (gemini_signed_text, streamers.google),
    BEDROCK: (lambda: converse(*CONTENT), streamers.bedrock),
    "ollama:qwen3:8b": (ollama_reply, streamers.ollama),
    "mistral:magistral-medium-latest": (mistral_reply, streamers.mistral),
    "cohere:command-a-reasoning-08-2025": (cohere_with_content, streamers.cohere),
}


def cutter(data: st.DataObject) -> streamers.Cut:
    """Cuts a text at points hypothesis draws (none: one piece)."""

    def cut(text: str) -> list[str]:
        points = data.draw(st.lists(st.integers(0, len(text)), max_size=6))
        edges = [0, *sorted(set(points) - {0, len(text)}), len(text)]
        return [text[a:b] for a, b in zip(edges, edges[1:], strict=False)] or [""]

    return cut


@pytest.mark.parametrize("model", sorted(REPLIES))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_a_reply_streamed_in_any_pieces_decodes_as_the_whole_reply(model, data):
    made, streamer = REPLIES[model]
    response = made()
    events = streamer(as_dict(response), cutter(data))
    decoder = StreamDecoder(model)
    for event in events:
        decoder.feed(event)
    assert decoder.result() == decode(response, model)
    assert (
        encode(conversation(decoder.result()), model).kwargs
        == encode(conversation(decode(response, model)), model).kwargs
    )


#: The signature each reply's thinking carries, as the provider's request spells it back.
REPLAYED = {
    "anthropic:claude-sonnet-4-5": '"signature": "EqQBCkYIBxgCKkDs',
    "openai:gpt-5": '"encrypted_content": "gAAAAABo3rX8',
    "google:gemini-3-pro-preview": "thought_signature",
    BEDROCK: '"signature": "ErcBCkgIBxAB',
}


@pytest.mark.parametrize("model", sorted(REPLAYED))
def test_a_streamed_agent_turn_replays_its_thinking_to_the_same_provider(model):
    """stream → accumulate → append → encode: the signed thinking goes back as it came."""
    made, streamer = REPLIES[model]
    reply = decode_stream(streamer(as_dict(made()), lambda text: list(text)), model)
    kwargs = encode(conversation(reply), model).kwargs
    whole = encode(conversation(decode(made(), model)), model).kwargs
    assert kwargs == whole
    assert REPLAYED[model] in json.dumps(kwargs, default=repr)


def test_ollama_sdk_chunks_decode_as_their_dicts():
    from ollama import ChatResponse

    events = streamers.ollama(as_dict(ollama_reply()), lambda text: list(text))
    chunks = [ChatResponse.model_validate(event) for event in events]
    assert decode_stream(chunks, "ollama:qwen3:8b") == decode(ollama_reply(), "ollama:qwen3:8b")
