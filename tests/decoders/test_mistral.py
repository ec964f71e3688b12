"""Decoding Mistral ``ChatCompletionResponse`` objects (mistralai 3.7)."""

from __future__ import annotations

from typing import Any

from mistralai.client.models import (
    AssistantMessage,
    ChatCompletionChoice,
    ChatCompletionResponse,
    FunctionCall,
    TextChunk,
    ThinkChunk,
    UsageInfo,
)
from mistralai.client.models import (
    ToolCall as MistralToolCall,
)
from providers import strict_mistral

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import conversation

MODEL = "mistral:magistral-medium-latest"
TRUNCATED = '{"path": "report.pdf", "pages": [1,'


def completion(
    message: AssistantMessage, response_id: str = "cmpl-e5cc70bb28c444948073e77776eb30ef"
) -> ChatCompletionResponse:
    return ChatCompletionResponse(
        id=response_id,
        object="chat.completion",
        model="magistral-medium-2509",
        created=1757000000,
        usage=UsageInfo(prompt_tokens=80, completion_tokens=40, total_tokens=120),
        choices=[ChatCompletionChoice(index=0, finish_reason="tool_calls", message=message)],
    )


def call(arguments: Any, call_id: str | None = None, index: int = 0) -> MistralToolCall:
    function = FunctionCall(name="read_file", arguments=arguments)
    if call_id is None:
        return MistralToolCall(function=function, index=index)  # id defaults to "null"
    return MistralToolCall(id=call_id, function=function, index=index)


def reply() -> ChatCompletionResponse:
    content = [
        ThinkChunk(thinking=[TextChunk(text="Read both files.")], signature="mistral-sig-1"),
        TextChunk(text="Reading both files."),
    ]
    calls = [call('{"path": "notes.md"}', "D681PevKs"), call(TRUNCATED, "Wb3kS9qLp", 1)]
    return completion(AssistantMessage(content=content, tool_calls=calls))


def test_thinking_text_and_parallel_calls_decode_and_bad_argument_text_is_flagged() -> None:
    assert decode(reply(), MODEL).content == (
        Thinking(text="Read both files.", signature="mistral-sig-1", provider="mistral"),
        Text(text="Reading both files."),
        ToolCall(id="D681PevKs", name="read_file", arguments={"path": "notes.md"}),
        ToolCall(id="Wb3kS9qLp", name="read_file", arguments={}, invalid_arguments=TRUNCATED),
    )


def test_decoded_reply_goes_back_with_its_think_chunk_and_argument_text_verbatim() -> None:
    kwargs = encode(conversation(decode(reply(), MODEL)), MODEL).kwargs
    strict_mistral.validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": [
            {
                "type": "thinking",
                "thinking": [{"type": "text", "text": "Read both files."}],
                "signature": "mistral-sig-1",
            },
            {"type": "text", "text": "Reading both files."},
        ],
        "tool_calls": [
            {
                "id": "D681PevKs",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "notes.md"}'},
            },
            {
                "id": "Wb3kS9qLp",
                "type": "function",
                "function": {"name": "read_file", "arguments": TRUNCATED},
            },
        ],
    }


def test_json_dict_of_the_response_decodes_like_the_object() -> None:
    response = reply()
    assert decode(response.model_dump(mode="json"), MODEL) == decode(response, MODEL)


def test_arguments_given_as_a_dict_are_taken_as_they_are() -> None:
    response = completion(
        AssistantMessage(content="", tool_calls=[call({"path": "a"}, "abcdefghi")])
    )
    assert decode(response, MODEL).tool_calls == (
        ToolCall(id="abcdefghi", name="read_file", arguments={"path": "a"}),
    )


def test_calls_without_an_id_get_ids_unique_to_their_response() -> None:
    """mistralai's ToolCall.id defaults to the string "null": that is no id."""
    first = completion(AssistantMessage(tool_calls=[call("{}"), call("{}", index=1)]), "cmpl-1")
    second = completion(AssistantMessage(tool_calls=[call("{}")]), "cmpl-2")
    ids = [c.id for c in decode(first, MODEL).tool_calls + decode(second, MODEL).tool_calls]
    assert len(set(ids)) == 3 and "null" not in ids
    assert [c.id for c in decode(first, MODEL).tool_calls] == ids[:2]  # stable
