"""Recorded streams of every wire (tests/decoders/streams, see SOURCES.md) accumulate to the
facts of their replies, however the stream is fed: as JSON events, as the official SDK's
typed events, as the raw body cut anywhere, as lines; and the reply goes back to its
provider through the SDK's strict request types."""

from __future__ import annotations

import json
import random

import pytest
from providers import (
    strict_anthropic,
    strict_bedrock,
    strict_cohere,
    strict_google,
    strict_mistral,
    strict_openai_chat,
    strict_openai_responses,
)

from toolwire.decoders.stream import StreamDecoder, decode_stream
from toolwire.errors import DecodeError
from toolwire.request import encode

from .responses import conversation
from .stream_corpus import MODELS, facts, recorded, replies, sse_body

#: (wire, recording, reply) → the facts of the reply, read off the recording by hand.
EXPECTED = {
    ("anthropic", "anthropic-clear-thinking.1", 0): [
        ("thinking", "The previous result was ", "EvQBCkYICxgC"),
        ("text", "925 ÷ 5 = 185"),
    ],
    ("anthropic", "anthropic-json-tool.2", 0): [
        ("text", "I'll invoke the JSON res"),
        ("call", "json", '{"elements": [{"location": "San Francisco", "tem', ""),
    ],
    ("anthropic", "anthropic-mcp.1", 0): [("text", "The echo tool responded ")],
    ("anthropic", "anthropic-text", 0): [("text", "Hello! I'm doing well, t")],
    ("anthropic", "anthropic-tool-no-args", 0): [
        ("text", "I'll update the issue li"),
        ("call", "updateIssueList", "{}", ""),
    ],
    ("anthropic", "anthropic-web-fetch-tool-20260209.1", 0): [("text", "The page at **example.co")],
    ("anthropic", "duplicate-message-start", 0): [("text", "Hello, World!")],
    ("anthropic", "spliced-message-start", 0): [
        ("thinking", "Let me call the tool.", "sig-second"),
        ("call", "test-tool", '{"value": "Sparkle Day"}', ""),
    ],
    ("bedrock", "amazon-bedrock-json-with-tools.1", 0): [
        ("text", "Multiple tools."),
        ("call", "tool-a", '{"a": "1"}', ""),
        ("call", "tool-b", '{"b": "2"}', ""),
        ("text", "Final JSON."),
        ("call", "json", '{"final": "result"}', ""),
    ],
    ("bedrock", "amazon-bedrock-reasoning", 0): [
        ("thinking", "Let me count the r's in ", "Ep0CCkgICxAB"),
        ("text", "There are **3** r's in \""),
    ],
    ("bedrock", "amazon-bedrock-text", 0): [("text", 'Let me count the "r"s in')],
    ("bedrock", "amazon-bedrock-tool-call.1", 0): [
        ("call", "test-tool", '{"value": "Sparkle Day"}', "")
    ],
    ("cohere", "cohere-empty-tool-call", 0): [
        ("thinking", "I will use the currentTi", ""),
        ("call", "currentTime", "{}", ""),
    ],
    ("cohere", "cohere-reasoning", 0): [
        ("thinking", "The user is asking for t", ""),
        ("text", "The answer to 2 + 2 is 4"),
    ],
    ("cohere", "cohere-text", 0): [("text", "The capital of France is")],
    ("cohere", "cohere-tool-call", 0): [
        ("thinking", "I will use the weather t", ""),
        ("call", "weather", '{"location": "San Francisco"}', ""),
        ("call", "cityAttractions", '{"city": "San Francisco"}', ""),
    ],
    ("google", "google-reasoning-gemini3", 0): [
        ("text", 'There are **3** "r"s in '),
        ("thinking", "", "EpAICo0IAb4+"),
        ("text", ""),
    ],
    ("google", "google-stream-no-args-tool-call", 0): [
        ("thinking", "**Processing User Reques", ""),
        ("call", "read_theme", "{}", "AY89a18a8/Lo"),
        ("call", "read_screen", '{"id": "A"}', ""),
        ("call", "read_screen", '{"id": "B"}', ""),
        ("call", "read_screen", '{"id": "C"}', ""),
    ],
    ("google", "google-stream-tool-call-arguments", 0): [
        ("call", "getWeather", '{"location": "Boston"}', "CiMBjz1rX25K"),
        ("call", "getWeather", '{"location": "San Francisco"}', ""),
    ],
    ("google", "google-text", 0): [
        ("text", 'There are **3** "r"s in '),
        ("thinking", "", "EqsFCqgFAb4+"),
        ("text", ""),
    ],
    ("google", "google-tool-call-gemini3", 0): [
        ("call", "weather", '{"location": "San Francisco"}', "EpEgCo4gAb4+")
    ],
    ("google", "google-tool-call", 0): [
        ("call", "weather", '{"location": "San Francisco"}', "EqUCCqICAb4+")
    ],
    ("google", "google-vertex-stream-tool-call-arguments-nested.1", 0): [
        ("call", "cookRecipe", '{"recipe": {"ingredients": [{"amount": "16 oz", ', "CmIBjz1rX0OQ")
    ],
    ("mistral", "mistral-incremental-tool-call", 0): [
        ("call", "webSearchTool", '{"query": "current Berlin weather"}', "")
    ],
    ("mistral", "mistral-reasoning", 0): [
        ("thinking", "The user is asking for 2", ""),
        ("text", "2 + 2 = 4"),
    ],
    ("mistral", "mistral-text", 0): [("text", "Hello, world! This is a ")],
    ("mistral", "mistral-tool-call", 0): [("call", "weather", '{"location": "San Francisco"}', "")],
    ("openai_chat", "azure-model-router.1", 0): [("text", "Capital of Denmark.")],
    ("openai_chat", "deepseek-tool-call", 0): [
        ("thinking", "The user is asking for t", ""),
        ("call", "weather", '{"location": "San Francisco"}', ""),
    ],
    ("openai_chat", "groq-tool-call", 0): [("call", "weather", "{}", "")],
    ("openai_chat", "xai-tool-call", 0): [
        ("thinking", "First, the user is", ""),
        ("call", "weather", '{"location": "San Francisco"}', ""),
    ],
    ("openai_responses", "openai-reasoning-encrypted-content.1", 0): [
        ("thinking", "**Calculating step-by-st", "gAAAAABpPDIV"),
        ("call", "calculator", '{"a": 12, "b": 7, "op": "add"}', "fc_01830d662"),
    ],
    ("openai_responses", "openai-reasoning-encrypted-content.1", 1): [
        ("call", "calculator", '{"a": 19, "b": 3, "op": "multiply"}', "fc_01830d662")
    ],
    ("openai_responses", "openai-reasoning-encrypted-content.1", 2): [
        ("call", "calculator", '{"a": 57, "b": 10, "op": "multiply"}', "fc_01830d662")
    ],
    ("openai_responses", "openai-reasoning-encrypted-content.1", 3): [
        ("text", "The final result is **57")
    ],
}


def events_of(wire: str, name: str, reply: int) -> list[dict]:
    events = recorded(wire, name)
    return replies(events)[reply] if wire == "openai_responses" else events


CASES = sorted(EXPECTED)
RAW = [case for case in CASES if case[0] != "bedrock"]  # Bedrock's body is binary event-stream


@pytest.mark.parametrize(("wire", "name", "reply"), CASES)
def test_a_recorded_stream_accumulates_to_the_facts_of_its_reply(wire, name, reply):
    message = decode_stream(events_of(wire, name, reply), MODELS[wire])
    assert facts(message) == EXPECTED[wire, name, reply]


@pytest.mark.parametrize(("wire", "name", "reply"), CASES)
def test_the_callers_events_are_left_as_they_came(wire, name, reply):
    events = events_of(wire, name, reply)
    before = json.dumps(events)
    decode_stream(events, MODELS[wire])
    assert json.dumps(events) == before


@pytest.mark.parametrize(("wire", "name", "reply"), RAW)
def test_the_raw_body_cut_anywhere_accumulates_to_the_same_reply(wire, name, reply):
    events = events_of(wire, name, reply)
    expected = decode_stream(events, MODELS[wire])
    body = sse_body(wire, events)
    for seed in range(4):
        cuts = sorted(random.Random(seed).sample(range(1, len(body)), min(40, len(body) - 1)))
        pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
        assert decode_stream(pieces, MODELS[wire]) == expected
    assert decode_stream([body[i : i + 1] for i in range(len(body))], MODELS[wire]) == expected


@pytest.mark.parametrize(("wire", "name", "reply"), RAW)
def test_the_body_as_lines_or_as_one_text_accumulates_to_the_same_reply(wire, name, reply):
    events = events_of(wire, name, reply)
    expected = decode_stream(events, MODELS[wire])
    text = sse_body(wire, events).decode()
    lines = text.replace("\r\n", "\n").split("\n")  # as httpx's iter_lines() gives them
    assert decode_stream(lines, MODELS[wire]) == expected
    assert decode_stream([text], MODELS[wire]) == expected


@pytest.mark.parametrize(("wire", "name", "reply"), CASES)
def test_the_accumulated_reply_goes_back_through_the_sdk_strict_types(wire, name, reply):
    message = decode_stream(events_of(wire, name, reply), MODELS[wire])
    model = MODELS[wire]
    kwargs = encode(conversation(message), model).kwargs
    check = {
        "anthropic": _anthropic_validate,
        "openai_responses": strict_openai_responses.validate,
        "cohere": strict_cohere.validate,
        "mistral": strict_mistral.validate,
        "openai_chat": lambda k: strict_openai_chat.validate(without_replay(k), model),
        "google": lambda k: strict_google.validate(k, model),
        "bedrock": lambda k: strict_bedrock.validate(k, model),
    }[wire]
    check(kwargs)


def _anthropic_validate(kwargs: dict) -> None:
    """The Messages API's request types; where a provider part holds a block only the beta API
    sends (MCP, a code execution result's newer fields), the beta API's, as it came from it."""
    try:
        strict_anthropic.validate(kwargs)
    except ValueError:
        strict_anthropic.validate_beta(kwargs)


def without_replay(kwargs: dict) -> dict:
    """Chat kwargs less the reasoning field a target's table replays beside the SDK's types
    (``reasoning_replay``; tests/providers/test_reasoning_replay.py checks it)."""
    extra = ("reasoning_content", "reasoning_details")
    messages = [{k: v for k, v in m.items() if k not in extra} for m in kwargs["messages"]]
    return {**kwargs, "messages": messages}


def test_an_error_event_mid_stream_is_a_decode_error_naming_it_and_what_came_before():
    decoder = StreamDecoder(MODELS["openai_responses"])
    events = recorded("openai_responses", "openai-error.1")
    with pytest.raises(DecodeError, match="after 2 events.*insufficient_quota: You exceeded"):
        for event in events:
            decoder.feed(event)
    with pytest.raises(DecodeError, match="insufficient_quota"):
        decoder.result()
    assert decoder.partial().content == ()


def test_a_refusal_with_no_content_is_the_error_decode_gives_for_the_whole_reply():
    with pytest.raises(DecodeError, match="returned an empty message .stop_reason=refusal"):
        decode_stream(recorded("anthropic", "anthropic-refusal"), MODELS["anthropic"])


@pytest.mark.parametrize(("wire", "name", "reply"), CASES)
def test_a_stream_cut_before_its_stop_event_is_an_error_and_partial_keeps_what_came(
    wire, name, reply
):
    events = events_of(wire, name, reply)
    decoder = StreamDecoder(MODELS[wire])
    stop = 0
    while not decoder.finished:
        before = decoder.partial()
        decoder.feed(events[stop])
        stop += 1
    cut = StreamDecoder(MODELS[wire])
    for event in events[: stop - 1]:
        cut.feed(event)
    with pytest.raises(DecodeError, match="ended before its stop event, after .* events"):
        cut.result()
    assert cut.partial() == before


def test_a_stream_cut_mid_argument_names_the_call_and_how_far_its_arguments_came():
    events = recorded("anthropic", "anthropic-json-tool.2")
    stops = [i for i, e in enumerate(events) if e.get("type") == "content_block_stop"]
    cut = stops[-1] - 1  # the call's last argument fragment does not arrive
    decoder = StreamDecoder(MODELS["anthropic"])
    for event in events[:cut]:
        decoder.feed(event)
    with pytest.raises(DecodeError, match=r"tool call 0 json \(arguments cut off after \d+ char"):
        decoder.result()
    assert decoder.partial().tool_calls[0].invalid_arguments is not None
