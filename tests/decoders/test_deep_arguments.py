"""Tool-call arguments nested hundreds deep (a hostile server's reply, issue 33): ``decode``
keeps them as text in ``invalid_arguments`` instead of raising RecursionError, and the
history still encodes."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolwire as tw
from toolwire.decoders._common import MAX_ARGUMENT_DEPTH


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_text(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def chat_reply(arguments: str) -> dict[str, Any]:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
    }  # fmt: skip


def claude_reply(arguments: dict[str, Any]) -> dict[str, Any]:
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": arguments}
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [block], "stop_reason": "tool_use", "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }  # fmt: skip


@pytest.mark.parametrize("depth", [MAX_ARGUMENT_DEPTH + 1, 5000, 200_000])
def test_arguments_text_nested_too_deep_is_kept_as_text(depth: int) -> None:
    text = deep_text(depth)
    (call,) = tw.decode(chat_reply(text), "openai-chat:gpt-4.1").tool_calls
    assert (call.arguments, call.invalid_arguments) == ({}, text)
    history = [tw.User("go"), tw.Assistant([call]), tw.ToolResult.of("call_1", "f", "done")]
    assert tw.encode(history, "openai-chat:gpt-4.1").kwargs["messages"]


def test_arguments_as_data_nested_too_deep_are_kept_as_text_or_a_note() -> None:
    (call,) = tw.decode(claude_reply(nested(MAX_ARGUMENT_DEPTH + 5)), "anthropic:x").tool_calls
    assert call.arguments == {} and json.loads(call.invalid_arguments or "")["a"]
    (deeper,) = tw.decode(claude_reply(nested(2000)), "anthropic:x").tool_calls
    assert deeper.arguments == {} and "not kept" in (deeper.invalid_arguments or "")


def test_arguments_within_the_depth_are_data() -> None:
    (call,) = tw.decode(chat_reply(deep_text(MAX_ARGUMENT_DEPTH - 1)), "openai-chat:x").tool_calls
    assert call.invalid_arguments is None and "a" in call.arguments


@pytest.mark.parametrize("text", ['{"x": NaN}', '{"x": Infinity}', '{"x": -1e999}'])
def test_arguments_holding_a_number_json_cannot_carry_are_kept_as_text(text: str) -> None:
    """Python's json reads NaN, Infinity and an overflowing number, but no wire can send them
    back and a message's JSON refuses them: the call is flagged (``invalid_arguments``), as
    decode does for any argument text that is not a JSON object, never an error."""
    (call,) = tw.decode(chat_reply(text), "openai-chat:gpt-4.1").tool_calls
    assert call.arguments == {} and call.invalid_arguments == text
    (as_data,) = tw.decode(
        claude_reply({"x": float("nan")}), "anthropic:claude-sonnet-4-6"
    ).tool_calls
    assert as_data.arguments == {} and as_data.invalid_arguments == '{"x": NaN}'
