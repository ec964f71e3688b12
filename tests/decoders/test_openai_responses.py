"""Decoding Responses API ``Response`` objects: reasoning items and function calls replayed."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

from openai.types.responses import (
    Response,
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseReasoningItem,
)
from openai.types.responses.response_reasoning_item import Summary
from providers import strict_openai_responses

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode, openai_responses
from toolwire.request import encode

from .responses import OPENAI_ENCRYPTED, conversation, openai_response

MODEL = "openai:gpt-5"
TRUNCATED = '{"path": "report.pdf", "pages": [1,'


def reasoning(*summaries: str, encrypted: str | None = OPENAI_ENCRYPTED) -> ResponseReasoningItem:
    return ResponseReasoningItem(
        id="rs_68af4030baa48193b0b43b4c2a176a1a",
        type="reasoning",
        summary=[Summary(type="summary_text", text=s) for s in summaries],
        encrypted_content=encrypted,
    )


def function_call(n: int, arguments: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        id=f"fc_68af40{n}",
        type="function_call",
        call_id=f"call_{n}xYz",
        name="read_file",
        arguments=arguments,
        status="completed",
    )


def message_item(*content: Any) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg_68af40", type="message", role="assistant", status="completed", content=list(content)
    )


def output_text(text: str) -> ResponseOutputText:
    return ResponseOutputText(type="output_text", text=text, annotations=[])


def reply() -> Response:
    return openai_response(
        [
            reasoning("Read both files."),
            message_item(output_text("Reading both files.")),
            function_call(1, '{"path":"notes.md"}'),
            function_call(2, '{"path":"report.pdf"}'),
        ]
    )


def test_reasoning_item_text_and_parallel_function_calls_decode_in_order() -> None:
    assert decode(reply(), MODEL).content == (
        Thinking(
            text="Read both files.",
            signature=OPENAI_ENCRYPTED,
            provider="openai",
            id="rs_68af4030baa48193b0b43b4c2a176a1a",
        ),
        Text(text="Reading both files."),
        ToolCall(
            id="call_1xYz",
            name="read_file",
            arguments={"path": "notes.md"},
            signature="fc_68af401",
            provider="openai",
        ),
        ToolCall(
            id="call_2xYz",
            name="read_file",
            arguments={"path": "report.pdf"},
            signature="fc_68af402",
            provider="openai",
        ),
    )


def test_reasoning_item_and_function_call_items_go_back_as_openai_returned_them() -> None:
    kwargs = encode(conversation(decode(reply(), MODEL)), MODEL).kwargs
    strict_openai_responses.validate(kwargs)
    assert kwargs["input"][1:5] == [
        {
            "type": "reasoning",
            "id": "rs_68af4030baa48193b0b43b4c2a176a1a",
            "summary": [{"type": "summary_text", "text": "Read both files."}],
            "encrypted_content": OPENAI_ENCRYPTED,
        },
        {"role": "assistant", "content": "Reading both files."},
        {
            "type": "function_call",
            "call_id": "call_1xYz",
            "name": "read_file",
            "arguments": '{"path":"notes.md"}',
            "id": "fc_68af401",
        },
        {
            "type": "function_call",
            "call_id": "call_2xYz",
            "name": "read_file",
            "arguments": '{"path":"report.pdf"}',
            "id": "fc_68af402",
        },
    ]
    assert [i["call_id"] for i in kwargs["input"][5:]] == ["call_1xYz", "call_2xYz"]


def test_reasoning_without_encrypted_content_goes_back_by_id_with_an_empty_summary() -> None:
    """With store=true OpenAI finds the item by id; ``summary`` is required even when empty."""
    response = openai_response([reasoning(encrypted=None), function_call(1, "{}")])
    kwargs = encode(conversation(decode(response, MODEL)), MODEL).kwargs
    strict_openai_responses.validate(kwargs)
    assert kwargs["input"][1] == {
        "type": "reasoning",
        "id": "rs_68af4030baa48193b0b43b4c2a176a1a",
        "summary": [],
    }


def test_several_summary_parts_are_joined_with_a_blank_line() -> None:
    response = openai_response(
        [reasoning("**Plan**\n\nRead.", "**Check**\n\nBoth."), function_call(1, "{}")]
    )
    thinking = decode(response, MODEL).content[0]
    assert isinstance(thinking, Thinking)
    assert thinking.text == "**Plan**\n\nRead.\n\n**Check**\n\nBoth."


def test_invalid_argument_text_is_flagged_and_replayed_verbatim() -> None:
    response = openai_response([function_call(1, TRUNCATED)])
    message = decode(response, MODEL)
    assert message.tool_calls[0].invalid_arguments == TRUNCATED
    assert message.tool_calls[0].arguments == {}
    kwargs = encode(conversation(message), MODEL).kwargs
    assert kwargs["input"][1]["arguments"] == TRUNCATED


def test_json_dict_of_the_response_decodes_like_the_object() -> None:
    response = reply()
    assert decode(response.model_dump(mode="json"), MODEL) == decode(response, MODEL)


def test_a_refusal_is_text() -> None:
    refusal = ResponseOutputRefusal(type="refusal", refusal="I can't help with that.")
    message = decode(openai_response([message_item(refusal)]), MODEL)
    assert message.content == (Text(text="I can't help with that."),)


_BLOCKS = (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.Match)


def _nesting(node: ast.AST, level: int = 0) -> int:
    """The deepest block nesting under ``node``; an ``elif`` sits at its ``if``'s level."""
    deepest = level
    for child in ast.iter_child_nodes(node):
        is_elif = isinstance(node, ast.If) and node.orelse == [child]
        nested = isinstance(child, _BLOCKS) and not is_elif
        deepest = max(deepest, _nesting(child, level + nested))
    return deepest


def test_decode_nests_at_most_three_levels_as_style_md_allows() -> None:
    (function,) = ast.parse(textwrap.dedent(inspect.getsource(openai_responses.decode))).body
    assert _nesting(function) <= 3
