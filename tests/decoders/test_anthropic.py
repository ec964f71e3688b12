"""Decoding Anthropic ``Message`` objects, and their thinking going back byte-identical."""

from __future__ import annotations

from anthropic.types import Message, TextBlock, ThinkingBlock, ToolUseBlock, Usage
from providers import strict_anthropic

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import (
    ANTHROPIC_REDACTED,
    ANTHROPIC_SIGNATURE,
    anthropic_thinking_message,
    conversation,
)

MODEL = "anthropic:claude-sonnet-4-5"

#: The assistant message Anthropic expects back: the response's blocks, as params, in order.
EXPECTED_BACK = {
    "role": "assistant",
    "content": [
        {"type": "thinking", "thinking": "Two files: read both.", "signature": ANTHROPIC_SIGNATURE},
        {"type": "redacted_thinking", "data": ANTHROPIC_REDACTED},
        {"type": "text", "text": "Reading both files."},
        {"type": "tool_use", "id": "toolu_01A", "name": "read_file", "input": {"path": "notes.md"}},
        {
            "type": "tool_use",
            "id": "toolu_01B",
            "name": "read_file",
            "input": {"path": "report.pdf"},
        },
    ],
}


def test_thinking_redacted_thinking_text_and_parallel_calls_decode_in_order() -> None:
    message = decode(anthropic_thinking_message(), MODEL)
    assert message.content == (
        Thinking(text="Two files: read both.", signature=ANTHROPIC_SIGNATURE, provider="anthropic"),
        Thinking(text="", signature=ANTHROPIC_REDACTED, redacted=True, provider="anthropic"),
        Text(text="Reading both files."),
        ToolCall(id="toolu_01A", name="read_file", arguments={"path": "notes.md"}),
        ToolCall(id="toolu_01B", name="read_file", arguments={"path": "report.pdf"}),
    )


def test_decoded_reply_goes_back_to_anthropic_byte_identical_with_thinking_first() -> None:
    message = decode(anthropic_thinking_message(), MODEL)
    kwargs = encode(conversation(message), MODEL).kwargs
    strict_anthropic.validate(kwargs)
    assert kwargs["messages"][1] == EXPECTED_BACK
    results = kwargs["messages"][2]["content"]
    assert [r["tool_use_id"] for r in results] == ["toolu_01A", "toolu_01B"]


def test_each_turn_keeps_its_own_thinking_across_a_multi_turn_conversation() -> None:
    first = decode(anthropic_thinking_message(), MODEL)
    second = decode(_final_answer("Sig-of-turn-2=="), MODEL)
    kwargs = encode([*conversation(first), second], MODEL).kwargs
    strict_anthropic.validate(kwargs)
    assert kwargs["messages"][1] == EXPECTED_BACK
    assert kwargs["messages"][3] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Summarise.", "signature": "Sig-of-turn-2=="},
            {"type": "text", "text": "notes.md holds notes; report.pdf has 3 pages."},
        ],
    }


def test_json_dict_of_the_message_decodes_like_the_object() -> None:
    response = anthropic_thinking_message()
    assert decode(response.model_dump(mode="json"), MODEL) == decode(response, MODEL)


def test_empty_thinking_text_with_a_signature_is_kept_and_replayed() -> None:
    """Claude 4 models can return thinking with its text omitted: the signature still counts."""
    response = _final_answer("EsigOnly==", thinking="")
    kwargs = encode([*conversation(), decode(response, MODEL)], MODEL).kwargs
    assert kwargs["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "",
        "signature": "EsigOnly==",
    }


def _final_answer(signature: str, thinking: str = "Summarise.") -> Message:
    return Message(
        id="msg_02",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[
            ThinkingBlock(type="thinking", thinking=thinking, signature=signature),
            TextBlock(type="text", text="notes.md holds notes; report.pdf has 3 pages."),
        ],
        stop_reason="end_turn",
        stop_sequence=None,
        usage=Usage(input_tokens=600, output_tokens=40),
    )


def test_a_tool_use_block_decodes_to_a_call_with_its_input_dict() -> None:
    response = Message(
        id="msg_03",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[
            ToolUseBlock(type="tool_use", id="toolu_9", name="search", input={"q": "x", "n": 3})
        ],
        stop_reason="tool_use",
        stop_sequence=None,
        usage=Usage(input_tokens=1, output_tokens=1),
    )
    assert decode(response, MODEL).tool_calls == (
        ToolCall(id="toolu_9", name="search", arguments={"q": "x", "n": 3}),
    )
