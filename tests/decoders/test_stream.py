"""``StreamDecoder`` as an application meets it: the deltas each feed returns, the stop
reason and usage, async streams, and the errors of a stream that is not what it should be."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest

from toolwire.content import Thinking, ToolCall
from toolwire.decoders import as_dict, decode
from toolwire.decoders.deltas import (
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallFinished,
    ToolCallStarted,
)
from toolwire.decoders.stream import StreamDecoder, decode_stream, decode_stream_async
from toolwire.errors import DecodeError, UnknownModelError
from toolwire.providers import BUILT_IN, wire_named
from toolwire.providers.wire import Decoder

from . import streamers
from .responses import anthropic_thinking_message, gemini_parallel_calls
from .stream_corpus import MODELS, recorded, sse_body
from .test_openai_responses import reasoning
from .test_openai_responses import reply as responses_reply

ANTHROPIC = MODELS["anthropic"]


def whole_pieces(text: str) -> list[str]:
    return [text]


def anthropic_events() -> list[dict]:
    return streamers.anthropic(as_dict(anthropic_thinking_message()), whole_pieces)


def test_each_feed_returns_what_is_new_in_order_and_a_call_is_handed_over_decoded():
    decoder = StreamDecoder(ANTHROPIC)
    deltas = [delta for event in anthropic_events() for delta in decoder.feed(event)]
    first = ToolCall(id="toolu_01A", name="read_file", arguments={"path": "notes.md"})
    assert deltas[:5] == [
        ThinkingDelta("Two files: read both."),
        TextDelta("Reading both files."),
        ToolCallStarted(0, "toolu_01A", "read_file"),
        ToolCallDelta(0, '{"path": "notes.md"}'),
        ToolCallFinished(0, first),
    ]
    assert [d.call for d in deltas if isinstance(d, ToolCallFinished)] == list(
        decoder.result().tool_calls
    )


def test_the_stop_reason_and_usage_are_the_providers_own():
    decoder = StreamDecoder(ANTHROPIC)
    for event in anthropic_events():
        decoder.feed(event)
    assert decoder.finished
    assert decoder.stop_reason == "tool_use"
    assert decoder.usage["output_tokens"] == 96


def test_thinking_deltas_of_several_summary_parts_join_as_the_decoded_thinking():
    response = responses_reply().model_copy(
        update={
            "output": [reasoning("Read notes.", "Then the report."), *responses_reply().output[1:]]
        }
    )
    decoder = StreamDecoder("openai:gpt-5")
    events = streamers.openai_responses(as_dict(response), whole_pieces)
    deltas = [d for event in events for d in decoder.feed(event)]
    thinking = "".join(d.text for d in deltas if isinstance(d, ThinkingDelta))
    assert thinking == "Read notes.\n\nThen the report."
    assert decoder.result().content[0] == decode(response, "openai:gpt-5").content[0]


def test_a_call_the_wire_sends_without_an_id_starts_with_none_and_is_matched_by_index():
    response = gemini_parallel_calls(ids=False)
    events = streamers.google(as_dict(response), whole_pieces)
    decoder = StreamDecoder(MODELS["google"])
    deltas = [d for event in events for d in decoder.feed(event)]
    assert [d.id for d in deltas if isinstance(d, ToolCallStarted)] == [None, None]
    finished = [d.index for d in deltas if isinstance(d, ToolCallFinished)]
    assert finished == [0, 1]
    assert decoder.result() == decode(response, MODELS["google"])


def test_an_async_stream_decodes_as_the_same_stream_read_in_order():
    events = anthropic_events()

    async def stream():
        for event in events:
            await asyncio.sleep(0)
            yield event

    reply = asyncio.run(decode_stream_async(stream(), ANTHROPIC))
    assert (
        reply == decode_stream(events, ANTHROPIC) == decode(anthropic_thinking_message(), ANTHROPIC)
    )
    assert isinstance(reply.content[0], Thinking)


def test_the_callers_event_dicts_are_left_as_they_were():
    events = recorded("google", "google-stream-tool-call-arguments")
    before = json.dumps(events)
    decode_stream(events, MODELS["google"])
    assert json.dumps(events) == before


def test_a_line_that_is_neither_sse_nor_json_is_a_decode_error_quoting_it():
    decoder = StreamDecoder(ANTHROPIC)
    with pytest.raises(
        DecodeError, match="not a line of a server-sent-events or NDJSON body: 'HTTP/1.1"
    ):
        decoder.feed(b"HTTP/1.1 200 OK\n")


def test_data_that_is_not_json_is_a_decode_error_at_the_end_of_its_event():
    decoder = StreamDecoder(ANTHROPIC)
    decoder.feed(b"data: {not json\n")
    with pytest.raises(DecodeError, match="an event's data is not JSON"):
        decoder.feed(b"\n")


def test_a_binary_body_is_a_decode_error_that_says_to_feed_boto3_events_for_bedrock():
    decoder = StreamDecoder(MODELS["bedrock"])
    with pytest.raises(DecodeError, match="not UTF-8 text .* feed the events boto3 yields"):
        decoder.feed(b"\x00\x00\x00\xa5\x00\x00\x00R\xb8\xff\x0b")


def test_an_event_that_does_not_read_is_a_decode_error_naming_the_wire_and_stays_one():
    decoder = StreamDecoder(MODELS["bedrock"])
    with pytest.raises(DecodeError, match="stream event of the bedrock wire"):
        decoder.feed({"contentBlockDelta": {"delta": {"text": "hi"}}})
    with pytest.raises(DecodeError, match="stream event of the bedrock wire"):
        decoder.result()  # the reply lacks that event: never returned as if whole


def test_what_is_no_event_at_all_is_a_decode_error():
    with pytest.raises(DecodeError, match="cannot decode a int"):
        StreamDecoder(ANTHROPIC).feed(42)


def test_after_an_error_event_every_feed_and_the_result_raise_it_again():
    decoder = StreamDecoder(ANTHROPIC)
    decoder.feed(anthropic_events()[0])
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    with pytest.raises(DecodeError, match="after 1 events, 0 characters of text: .*Overloaded"):
        decoder.feed(error)
    with pytest.raises(DecodeError, match="Overloaded"):
        decoder.feed(anthropic_events()[1])
    with pytest.raises(DecodeError, match="Overloaded"):
        decoder.result()


def test_a_chat_body_ended_by_done_without_a_finish_reason_still_completes():
    events = recorded("openai_chat", "groq-tool-call")
    body = sse_body(
        "openai_chat",
        [e for e in events if not e["choices"] or not e["choices"][0].get("finish_reason")],
    )
    reply = decode_stream([body], MODELS["openai_chat"])
    assert [c.name for c in reply.tool_calls] == ["weather"]


def test_an_unknown_model_is_refused_before_any_event():
    with pytest.raises(UnknownModelError):
        StreamDecoder("nonesuch:model")


def test_partial_is_empty_before_anything_has_arrived():
    assert StreamDecoder(MODELS["google"]).partial().content == ()


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_wire_has_its_own_stream_accumulator(name):
    stream = wire_named(name).decoder.stream
    assert stream is not None
    assert stream("issuer").wire == name


def test_a_wire_registered_without_an_accumulator_is_a_decode_error_not_a_crash(monkeypatch):
    anthropic = wire_named("anthropic")
    bare = dataclasses.replace(anthropic, decoder=Decoder(anthropic.decoder.decode, str))
    monkeypatch.setattr("toolwire.decoders.stream.wire_named", lambda _: bare)
    with pytest.raises(DecodeError, match="the anthropic wire of .* has no stream decoder"):
        StreamDecoder(ANTHROPIC)


def test_reasoning_sent_both_as_text_and_as_details_is_one_thinking_delta_and_decodes_as_whole():
    """OpenRouter repeats the reasoning text in ``reasoning`` and in ``reasoning_details``,
    and signs a detail in a later piece of the same ``index``."""
    head = {"id": "gen-1", "created": 1, "model": "anthropic/claude-sonnet-4.5"}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    text = {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
    events = [
        chunk(
            {
                "role": "assistant",
                "content": "",
                "reasoning": "Read ",
                "reasoning_details": [{**text, "text": "Read "}],
            }
        ),
        chunk({"reasoning": "it.", "reasoning_details": [{**text, "text": "it."}]}),
        chunk(
            {"reasoning": None, "reasoning_details": [{**text, "text": "", "signature": "EqQBsig"}]}
        ),
        chunk({"content": "Done."}),
        chunk({}, "stop"),
    ]
    decoder = StreamDecoder("openrouter:anthropic/claude-sonnet-4.5")
    deltas = [d for event in events for d in decoder.feed(event)]
    assert [d.text for d in deltas if isinstance(d, ThinkingDelta)] == ["Read ", "it."]
    detail = {**text, "text": "Read it.", "signature": "EqQBsig"}
    message = {
        "role": "assistant",
        "content": "Done.",
        "reasoning": "Read it.",
        "reasoning_details": [detail],
    }
    whole = {
        **head,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }
    assert decoder.result() == decode(whole, "openrouter:anthropic/claude-sonnet-4.5")
    assert json.loads(decoder.result().content[0].signature) == detail


def test_with_tools_a_finished_call_and_the_result_have_the_declared_parameter_names():
    from toolwire.messages import User
    from toolwire.request import encode
    from toolwire.tools import Tool

    schema = {"type": "object", "properties": {"filter[name]": {"type": "string"}}}
    tool = Tool("find", "Find rows.", schema)
    spec = encode([User("hi")], ANTHROPIC, tools=[tool]).kwargs["tools"][0]
    sent = next(iter(spec["input_schema"]["properties"]))
    assert sent != "filter[name]"
    call = {"type": "tool_use", "id": "toolu_1", "name": "find", "input": {sent: "x"}}
    reply = {**as_dict(anthropic_thinking_message()), "content": [call]}
    decoder = StreamDecoder(ANTHROPIC, tools=[tool])
    deltas = [d for e in streamers.anthropic(reply, whole_pieces) for d in decoder.feed(e)]
    finished = [d.call for d in deltas if isinstance(d, ToolCallFinished)]
    assert [c.arguments for c in finished] == [{"filter[name]": "x"}]
    assert decoder.result().tool_calls == tuple(finished)


def test_an_ollama_ndjson_body_decodes_and_its_error_line_is_a_decode_error():
    """Ollama streams NDJSON: one ChatResponse per line, the last with ``done``; current
    servers give each tool call an id (kept), and an error is a line of its own."""
    lines = [
        {"message": {"role": "assistant", "content": "", "thinking": "Paris."}, "done": False},
        {
            "message": {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "call_s4210pyw",
                        "function": {
                            "index": 0,
                            "name": "get_weather",
                            "arguments": {"city": "Paris"},
                        },
                    }
                ],
            },
            "done": False,
        },
        {
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": "stop",
            "eval_count": 20,
        },
    ]
    head = {"model": "qwen3:8b", "created_at": "2026-10-03T14:11:03.754715582Z"}
    body = "".join(json.dumps({**head, **line}) + "\n" for line in lines).encode()
    decoder = StreamDecoder(MODELS["ollama"])
    decoder.feed(body[:50])
    decoder.feed(body[50:])
    reply = decoder.result()
    assert [(c.id, c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("call_s4210pyw", "get_weather", {"city": "Paris"})
    ]
    assert reply.content[0] == Thinking(text="Paris.", provider="ollama")
    assert decoder.usage == {"eval_count": 20}
    with pytest.raises(DecodeError, match="model 'nonesuch' not found"):
        decode_stream([b'{"error":"model \'nonesuch\' not found"}\n'], MODELS["ollama"])
