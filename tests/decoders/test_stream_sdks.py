"""The recorded streams fed as each official SDK yields them: its typed stream events, read
by the SDK itself off an in-process HTTP transport; where the SDK has its own accumulator
(``get_final_message``, ``get_final_completion``, ``get_final_response``), ``tw.decode`` of
its result equals the accumulated reply."""

from __future__ import annotations

import pytest

from toolwire.decoders import decode
from toolwire.decoders.stream import StreamDecoder, decode_stream

from .stream_corpus import MODELS, http_client, recorded, replies, sse_body

ANTHROPIC = [
    "anthropic-clear-thinking.1",
    "anthropic-json-tool.2",
    "anthropic-tool-no-args",
    "anthropic-mcp.1",  # server tool blocks with their own input_json_delta fragments
    "anthropic-web-fetch-tool-20260209.1",
    "duplicate-message-start",  # message_start twice (the SDK mangles a spliced stream,
    # thinking of both messages joined: toolwire begins the message anew, see the corpus)
]
CHAT = ["azure-model-router.1", "deepseek-tool-call", "groq-tool-call", "xai-tool-call"]
GEMINI = ["google-reasoning-gemini3", "google-tool-call-gemini3", "google-stream-no-args-tool-call"]
ASK = {"messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize("name", ANTHROPIC)
def test_anthropic_sdk_events_accumulate_to_the_sdk_final_message(name):
    import anthropic
    import httpx2

    body = sse_body("anthropic", recorded("anthropic", name))
    transport = http_client(body, httpx2)
    client = anthropic.Anthropic(api_key="k", http_client=transport, max_retries=0)
    request = {"model": "claude-opus-4-6", "max_tokens": 1024, **ASK}  # not deprecated
    # MCP blocks are the beta API's: only the beta client's accumulator reads their input.
    messages = client.beta.messages if "mcp" in name else client.messages
    streamed = decode_stream(messages.create(**request, stream=True), MODELS["anthropic"])
    with messages.stream(**request) as stream:
        helper_events = list(stream)  # raw events and the SDK's own helper events
        final = stream.get_final_message()
    assert streamed == decode(final, MODELS["anthropic"])
    assert decode_stream(helper_events, MODELS["anthropic"]) == streamed


@pytest.mark.parametrize("name", CHAT)
def test_openai_chat_sdk_chunks_accumulate_to_the_sdk_final_completion(name):
    import openai

    model = MODELS["openai_chat"]
    body = sse_body("openai_chat", recorded("openai_chat", name))
    client = openai.OpenAI(api_key="k", http_client=http_client(body), max_retries=0)
    chunks = client.chat.completions.create(model="m", stream=True, **ASK)
    streamed = decode_stream(chunks, model)
    with client.chat.completions.stream(model="m", **ASK) as stream:
        events = list(stream)  # ChunkEvents beside the SDK's content/tool-call events
        final = stream.get_final_completion()
    assert decode_stream(events, model) == streamed
    assert decode(final, model) == streamed


@pytest.mark.parametrize("reply", range(4))
def test_openai_responses_sdk_events_accumulate_to_the_sdk_final_response(reply):
    import openai

    events = replies(recorded("openai_responses", "openai-reasoning-encrypted-content.1"))[reply]
    body = sse_body("openai_responses", events)
    client = openai.OpenAI(api_key="k", http_client=http_client(body), max_retries=0)
    request = {"model": "gpt-5", "input": "hi"}
    streamed = decode_stream(client.responses.create(**request, stream=True), "openai:gpt-5")
    with client.responses.stream(**request) as stream:
        helper_events = list(stream)
        final = stream.get_final_response()
    assert streamed == decode(final, "openai:gpt-5")
    assert decode_stream(helper_events, "openai:gpt-5") == streamed


@pytest.mark.parametrize("name", GEMINI)
def test_gemini_sdk_chunks_accumulate_like_the_json_events(name):
    from google.genai import types

    events = recorded("google", name)
    chunks = [types.GenerateContentResponse.model_validate(event) for event in events]
    assert decode_stream(chunks, MODELS["google"]) == decode_stream(events, MODELS["google"])


@pytest.mark.parametrize("name", ["cohere-reasoning", "cohere-tool-call", "cohere-empty-tool-call"])
def test_cohere_sdk_stream_events_accumulate_like_the_json_events(name):
    import cohere

    events = recorded("cohere", name)
    client = cohere.ClientV2(api_key="k", httpx_client=http_client(sse_body("cohere", events)))
    stream = client.chat_stream(model="command-a-reasoning-08-2025", **ASK)
    streamed = decode_stream(stream, MODELS["cohere"])
    assert streamed == decode_stream(events, MODELS["cohere"])


@pytest.mark.parametrize("name", ["mistral-reasoning", "mistral-tool-call", "mistral-text"])
def test_mistral_sdk_completion_events_accumulate_like_the_json_events(name):
    from mistralai.client.sdk import Mistral

    events = recorded("mistral", name)
    client = Mistral(api_key="k", client=http_client(sse_body("mistral", events)))
    stream = client.chat.stream(model="magistral-medium-latest", **ASK)
    assert decode_stream(stream, MODELS["mistral"]) == decode_stream(events, MODELS["mistral"])


def test_each_feed_returns_the_deltas_a_ui_renders_and_they_add_up_to_the_reply():
    from toolwire.decoders.deltas import TextDelta, ThinkingDelta, ToolCallFinished

    decoder = StreamDecoder(MODELS["openai_chat"])
    deltas = [d for e in recorded("openai_chat", "xai-tool-call") for d in decoder.feed(e)]
    reply = decoder.result()
    thinking = "".join(d.text for d in deltas if isinstance(d, ThinkingDelta))
    assert thinking == reply.content[0].text
    assert not [d for d in deltas if isinstance(d, TextDelta)]
    finished = [d for d in deltas if isinstance(d, ToolCallFinished)]
    assert [d.call for d in finished] == list(reply.tool_calls)
