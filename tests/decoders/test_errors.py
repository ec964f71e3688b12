"""Error payloads, empty replies and data of the wrong shape raise clear ToolwireErrors."""

from __future__ import annotations

from typing import Any

import pytest
from anthropic.types import Message, Usage
from cohere import AssistantMessageResponse, V2ChatResponse
from google.genai import types
from openai.types.chat import ChatCompletion, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice

from toolwire.decoders import decode
from toolwire.errors import DecodeError, ToolwireError, UnknownModelError

from .responses import anthropic_thinking_message, gemini_response, openai_response


def chat_completion(finish_reason: Any, content: str | None = None) -> ChatCompletion:
    message = ChatCompletionMessage(role="assistant", content=content)
    return ChatCompletion(
        id="chatcmpl-1",
        object="chat.completion",
        created=1741569952,
        model="gpt-4.1",
        choices=[Choice(index=0, finish_reason=finish_reason, message=message)],
    )


EMPTY_REPLIES = [
    pytest.param(
        anthropic_thinking_message(empty=True),
        "anthropic:claude-sonnet-4-5",
        "stop_reason=max_tokens",
        id="anthropic",
    ),
    pytest.param(
        chat_completion("length"), "openai-chat:gpt-4.1", "finish_reason=length", id="openai-chat"
    ),
    pytest.param(
        openai_response(
            [], status="incomplete", incomplete_details={"reason": "max_output_tokens"}
        ),
        "openai:gpt-5",
        "max_output_tokens",
        id="openai",
    ),
    pytest.param(
        gemini_response(finish_reason="SAFETY"),
        "google:gemini-3-pro-preview",
        "finish_reason=SAFETY",
        id="google",
    ),
    pytest.param(
        {
            "output": {"message": {"role": "assistant", "content": []}},
            "stopReason": "content_filtered",
            "usage": {"inputTokens": 1, "outputTokens": 0, "totalTokens": 1},
            "metrics": {"latencyMs": 1},
        },
        "bedrock:amazon.nova-pro-v1:0",
        "stopReason=content_filtered",
        id="bedrock",
    ),
    pytest.param(
        V2ChatResponse(
            id="c1", finish_reason="MAX_TOKENS", message=AssistantMessageResponse(role="assistant")
        ),
        "cohere:command-a-03-2025",
        "finish_reason=MAX_TOKENS",
        id="cohere",
    ),
    pytest.param(
        {
            "model": "qwen3:8b",
            "done": True,
            "done_reason": "length",
            "message": {"role": "assistant", "content": ""},
        },
        "ollama:qwen3:8b",
        "done_reason=length",
        id="ollama",
    ),
]


@pytest.mark.parametrize(("response", "model", "reason"), EMPTY_REPLIES)
def test_an_empty_reply_raises_naming_the_model_and_the_stop_reason(
    response: Any, model: str, reason: str
) -> None:
    with pytest.raises(DecodeError) as info:
        decode(response, model)
    assert model in str(info.value) and reason in str(info.value)
    assert "nothing to append" in str(info.value)


THINKING_ONLY = [
    pytest.param(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "thinking", "thinking": "Let me see", "signature": "c2ln"}],
            "stop_reason": "max_tokens",
            "usage": {"input_tokens": 10, "output_tokens": 1024},
        },
        "anthropic:claude-sonnet-4-5",
        "max_tokens",
        id="anthropic",
    ),
    pytest.param(
        {
            "model": "qwen3:8b",
            "done": True,
            "done_reason": "length",
            "message": {"role": "assistant", "content": "", "thinking": "Hmm, first"},
        },
        "ollama:qwen3:8b",
        "done_reason=length",
        id="ollama",
    ),
]


@pytest.mark.parametrize(("response", "model", "reason"), THINKING_ONLY)
def test_a_reply_of_reasoning_alone_raises_rather_than_appending_a_turn_with_no_answer(
    response: Any, model: str, reason: str
) -> None:
    with pytest.raises(DecodeError, match="returned only reasoning") as info:
        decode(response, model)
    assert reason in str(info.value)


ERROR_PAYLOADS = [
    pytest.param(
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        "anthropic:claude-sonnet-4-5",
        "Overloaded",
        id="anthropic",
    ),
    pytest.param(
        {
            "error": {
                "message": "Rate limit reached for gpt-4.1",
                "type": "requests",
                "code": "rate_limit_exceeded",
            }
        },
        "openai-chat:gpt-4.1",
        "Rate limit reached",
        id="openai-chat",
    ),
    pytest.param(
        openai_response(
            [],
            status="failed",
            error={"code": "server_error", "message": "The server had an error."},
        ),
        "openai:gpt-5",
        "The server had an error.",
        id="openai",
    ),
    pytest.param(
        {
            "error": {
                "code": 400,
                "message": "Please ensure that function call turn comes right after a user turn",
                "status": "INVALID_ARGUMENT",
            }
        },
        "google:gemini-2.5-flash",
        "function call turn",
        id="google",
    ),
    pytest.param(
        {"error": "model 'qwen3:8b' not found"}, "ollama:qwen3:8b", "not found", id="ollama"
    ),
]


@pytest.mark.parametrize(("response", "model", "text"), ERROR_PAYLOADS)
def test_an_error_payload_raises_with_the_provider_s_message(
    response: Any, model: str, text: str
) -> None:
    with pytest.raises(DecodeError, match="returned an error") as info:
        decode(response, model)
    assert text in str(info.value)


def test_a_prompt_blocked_by_gemini_raises_with_the_block_reason() -> None:
    blocked = types.GenerateContentResponse(
        prompt_feedback=types.GenerateContentResponsePromptFeedback(block_reason="SAFETY")
    )
    with pytest.raises(DecodeError, match="no candidates.*SAFETY"):
        decode(blocked, "google:gemini-3-pro-preview")


WRONG_SHAPES = [
    pytest.param(
        anthropic_thinking_message(),
        "openai:gpt-5",
        "Responses API Response",
        id="claude-as-openai",
    ),
    pytest.param(
        anthropic_thinking_message(), "openai-chat:gpt-4.1", "chat completion", id="claude-as-chat"
    ),
    pytest.param(
        chat_completion("stop", "hi"),
        "anthropic:claude-sonnet-4-5",
        "Anthropic Message",
        id="chat-as-claude",
    ),
    pytest.param(
        chat_completion("stop", "hi"),
        "bedrock:amazon.nova-pro-v1:0",
        "Bedrock Converse",
        id="chat-as-bedrock",
    ),
    pytest.param(
        chat_completion("stop", "hi"), "cohere:command-a-03-2025", "Cohere", id="chat-as-cohere"
    ),
    pytest.param(chat_completion("stop", "hi"), "ollama:qwen3:8b", "Ollama", id="chat-as-ollama"),
    pytest.param(
        chat_completion("stop", "hi"),
        "google:gemini-2.5-flash",
        "no candidates",
        id="chat-as-gemini",
    ),
]


@pytest.mark.parametrize(("response", "model", "what"), WRONG_SHAPES)
def test_a_response_of_another_wire_is_refused_saying_what_was_expected(
    response: Any, model: str, what: str
) -> None:
    with pytest.raises(DecodeError, match=what):
        decode(response, model)


def test_a_malformed_block_raises_a_decode_error_not_a_key_error() -> None:
    broken = {"content": [{"type": "tool_use", "id": "toolu_1"}], "stop_reason": "tool_use"}
    with pytest.raises(DecodeError, match="response of the anthropic wire") as info:
        decode(broken, "anthropic:claude-sonnet-4-5")
    assert isinstance(info.value.__cause__, KeyError)


def test_something_that_is_no_response_at_all_is_refused() -> None:
    with pytest.raises(DecodeError, match="cannot decode a str"):
        decode("Hello!", "anthropic:claude-sonnet-4-5")


def test_an_unknown_provider_is_a_toolwire_error() -> None:
    with pytest.raises(UnknownModelError):
        decode(anthropic_thinking_message(), "claude-sonnet-4-5")
    assert issubclass(DecodeError, ToolwireError)


def test_a_reply_with_only_a_refusal_stop_and_no_blocks_is_empty() -> None:
    refused = Message(
        id="msg_r",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[],
        stop_reason="refusal",
        stop_sequence=None,
        usage=Usage(input_tokens=5, output_tokens=0),
    )
    with pytest.raises(DecodeError, match="stop_reason=refusal"):
        decode(refused, "anthropic:claude-sonnet-4-5")
