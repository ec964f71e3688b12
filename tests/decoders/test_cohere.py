"""Decoding Cohere v2 ``ChatResponse`` (``V2ChatResponse``) objects: tool_plan as thinking."""

from __future__ import annotations

from cohere import (
    AssistantMessageResponse,
    TextAssistantMessageResponseContentItem,
    ThinkingAssistantMessageResponseContentItem,
    ToolCallV2,
    ToolCallV2Function,
    V2ChatResponse,
)
from providers import strict_cohere

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import conversation

MODEL = "cohere:command-a-reasoning-08-2025"
TRUNCATED = '{"path": "report.pdf", "pages": [1,'


def call(call_id: str, arguments: str) -> ToolCallV2:
    return ToolCallV2(
        id=call_id,
        type="function",
        function=ToolCallV2Function(name="read_file", arguments=arguments),
    )


def reply() -> V2ChatResponse:
    message = AssistantMessageResponse(
        role="assistant",
        tool_plan="I will read both files.",
        tool_calls=[
            call("read_file_4k7a2p", '{"path":"notes.md"}'),
            call("read_file_9x3m1q", TRUNCATED),
        ],
    )
    return V2ChatResponse(
        id="c14c80c3-18eb-4519-9460-6c92edd8cfb4", finish_reason="TOOL_CALL", message=message
    )


def test_tool_plan_and_parallel_calls_decode_and_bad_argument_text_is_flagged() -> None:
    assert decode(reply(), MODEL).content == (
        Thinking(text="I will read both files.", provider="cohere"),
        ToolCall(id="read_file_4k7a2p", name="read_file", arguments={"path": "notes.md"}),
        ToolCall(
            id="read_file_9x3m1q", name="read_file", arguments={}, invalid_arguments=TRUNCATED
        ),
    )


def test_decoded_reply_goes_back_with_its_tool_plan_and_argument_text_verbatim() -> None:
    kwargs = encode(conversation(decode(reply(), MODEL)), MODEL).kwargs
    strict_cohere.validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "tool_plan": "I will read both files.",
        "tool_calls": [
            {
                "id": "read_file_4k7a2p",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "notes.md"}'},
            },
            {
                "id": "read_file_9x3m1q",
                "type": "function",
                "function": {"name": "read_file", "arguments": TRUNCATED},
            },
        ],
    }


def test_thinking_and_text_content_items_decode_in_order_and_go_back() -> None:
    message = AssistantMessageResponse(
        role="assistant",
        content=[
            ThinkingAssistantMessageResponseContentItem(type="thinking", thinking="Both read."),
            TextAssistantMessageResponseContentItem(type="text", text="notes.md holds notes."),
        ],
    )
    response = V2ChatResponse(id="c2", finish_reason="COMPLETE", message=message)
    decoded = decode(response, MODEL)
    assert decoded.content == (
        Thinking(text="Both read.", provider="cohere"),
        Text(text="notes.md holds notes."),
    )
    kwargs = encode([*conversation(), decoded], MODEL).kwargs
    strict_cohere.validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Both read."},
            {"type": "text", "text": "notes.md holds notes."},
        ],
    }


def test_json_dict_of_the_response_decodes_like_the_object() -> None:
    response = reply()
    assert decode(response.model_dump(mode="json"), MODEL) == decode(response, MODEL)
