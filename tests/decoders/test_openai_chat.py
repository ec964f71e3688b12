"""Decoding Chat Completions ``ChatCompletion`` objects (OpenAI, Groq and compatible servers)."""

from __future__ import annotations

from typing import Any

from groq.types.chat import ChatCompletion as GroqCompletion
from openai.types.chat import ChatCompletion, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message_function_tool_call import (
    ChatCompletionMessageFunctionToolCall,
    Function,
)
from providers import strict_openai_chat

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import conversation

MODEL = "openai-chat:gpt-4.1"
TRUNCATED = '{"path": "report.pdf", "pages": [1, 2'


def completion(message: ChatCompletionMessage, finish_reason: Any = "tool_calls") -> ChatCompletion:
    return ChatCompletion(
        id="chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        object="chat.completion",
        created=1741569952,
        model="gpt-4.1-2025-04-14",
        choices=[Choice(index=0, finish_reason=finish_reason, message=message)],
    )


def call(call_id: str, arguments: str) -> ChatCompletionMessageFunctionToolCall:
    return ChatCompletionMessageFunctionToolCall(
        id=call_id, type="function", function=Function(name="read_file", arguments=arguments)
    )


def parallel_calls_reply() -> ChatCompletion:
    message = ChatCompletionMessage(
        role="assistant",
        content="Reading both files.",
        tool_calls=[
            call("call_Ab12", '{"path":"notes.md"}'),
            call("call_Cd34", TRUNCATED),
        ],
    )
    return completion(message)


def test_text_and_parallel_calls_decode_and_a_truncated_argument_text_is_flagged() -> None:
    message = decode(parallel_calls_reply(), MODEL)
    assert message.content == (
        Text(text="Reading both files."),
        ToolCall(id="call_Ab12", name="read_file", arguments={"path": "notes.md"}),
        ToolCall(id="call_Cd34", name="read_file", arguments={}, invalid_arguments=TRUNCATED),
    )


def test_decoded_reply_goes_back_as_the_assistant_message_with_argument_text_verbatim() -> None:
    message = decode(parallel_calls_reply(), MODEL)
    kwargs = encode(conversation(message), MODEL).kwargs
    strict_openai_chat.validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": "Reading both files.",
        "tool_calls": [
            {
                "id": "call_Ab12",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path":"notes.md"}'},
            },
            {
                "id": "call_Cd34",
                "type": "function",
                "function": {"name": "read_file", "arguments": TRUNCATED},
            },
        ],
    }
    assert [m["tool_call_id"] for m in kwargs["messages"][2:]] == ["call_Ab12", "call_Cd34"]


def test_json_dict_of_the_completion_decodes_like_the_object() -> None:
    response = parallel_calls_reply()
    assert decode(response.model_dump(mode="json"), MODEL) == decode(response, MODEL)


def test_argument_json_that_is_not_an_object_is_flagged_too() -> None:
    response = completion(
        ChatCompletionMessage(role="assistant", tool_calls=[call("c1", "[1, 2]")])
    )
    assert decode(response, MODEL).tool_calls == (
        ToolCall(id="c1", name="read_file", arguments={}, invalid_arguments="[1, 2]"),
    )


def test_empty_argument_text_means_no_arguments() -> None:
    response = completion(ChatCompletionMessage(role="assistant", tool_calls=[call("c1", "")]))
    assert decode(response, MODEL).tool_calls == (
        ToolCall(id="c1", name="read_file", arguments={}),
    )


def test_a_refusal_is_the_message_text() -> None:
    refusal = ChatCompletionMessage(role="assistant", refusal="I can't help with that.")
    message = decode(completion(refusal, "stop"), MODEL)
    assert message.content == (Text(text="I can't help with that."),)


def test_groq_reasoning_is_kept_as_unsigned_thinking_and_not_sent_back() -> None:
    response = GroqCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1741569952,
            "model": "qwen/qwen3-32b",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "logprobs": None,
                    "message": {"role": "assistant", "content": "42.", "reasoning": "6 x 7."},
                }
            ],
        }
    )
    message = decode(response, "groq:qwen/qwen3-32b")
    assert message.content == (Thinking(text="6 x 7.", provider="groq"), Text(text="42."))
    kwargs = encode([*conversation(), message], "groq:qwen/qwen3-32b").kwargs
    strict_openai_chat.validate(kwargs, "groq:qwen/qwen3-32b")
    assert kwargs["messages"][1] == {"role": "assistant", "content": "42."}


def test_reasoning_content_of_compatible_servers_is_kept_as_thinking() -> None:
    message = ChatCompletionMessage(role="assistant", content="Done.", reasoning_content="Plan.")
    decoded = decode(completion(message, "stop"), "openai-compatible:deepseek-r1")
    assert decoded.content == (
        Thinking(text="Plan.", provider="openai-compatible"),
        Text(text="Done."),
    )
