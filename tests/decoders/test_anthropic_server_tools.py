"""Anthropic server-tool blocks and citations: kept as ProviderParts, back to Claude as they came.

Replies are anthropic SDK ``Message`` objects (``Message.model_validate`` checks each block's
shape); requests pass the SDK's strict request types.
"""

from __future__ import annotations

from typing import Any

from anthropic.types import Message
from providers import strict_anthropic, strict_openai_responses

from toolwire.content import ProviderPart, Text, ToolCall
from toolwire.decoders import decode
from toolwire.messages import ToolResult, User
from toolwire.request import encode

CLAUDE = "anthropic:claude-sonnet-4-5"
SEARCH = {
    "type": "server_tool_use",
    "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
    "name": "web_search",
    "input": {"query": "claude shannon birth date"},
}
RESULTS = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
    "content": [
        {
            "type": "web_search_result",
            "url": "https://en.wikipedia.org/wiki/Claude_Shannon",
            "title": "Claude Shannon - Wikipedia",
            "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y",
            "page_age": "April 30, 2025",
        }
    ],
}
CITATIONS = [
    {
        "type": "web_search_result_location",
        "url": "https://en.wikipedia.org/wiki/Claude_Shannon",
        "title": "Claude Shannon - Wikipedia",
        "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
        "cited_text": "Claude Elwood Shannon (April 30, 1916 – February 24, 2001) was an American",
    }
]
CITED = {
    "type": "text",
    "text": "Claude Shannon was born on April 30, 1916.",
    "citations": CITATIONS,
}


def message(*content: dict[str, Any], stop: str = "end_turn") -> Message:
    return Message.model_validate(
        {
            "id": "msg_01Yw2Xj3gF7mJ8oPqa9cRz1B",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": list(content),
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 2190, "output_tokens": 120},
        }
    )


def sent(history: list[Any], model: str = CLAUDE) -> dict[str, Any]:
    kwargs = encode(history, model).kwargs
    if model == CLAUDE:
        strict_anthropic.validate(kwargs)
    else:
        strict_openai_responses.validate(kwargs)
    return kwargs


def test_server_tool_blocks_and_citations_decode_in_order_with_the_text() -> None:
    text = {"type": "text", "text": "Let me search."}
    reply = decode(message(text, SEARCH, RESULTS, CITED), CLAUDE)
    kinds = [(type(p).__name__, getattr(p, "kind", None)) for p in reply.content]
    assert kinds == [
        ("Text", None),
        ("ProviderPart", "server_tool_use"),
        ("ProviderPart", "web_search_tool_result"),
        ("Text", None),
        ("ProviderPart", "citations"),
    ]
    assert reply.content[2] == ProviderPart(
        provider="anthropic", wire="anthropic", kind="web_search_tool_result", data=RESULTS
    )
    assert reply.content[3] == Text(text=CITED["text"])


def test_a_reply_that_searched_goes_back_to_claude_block_for_block() -> None:
    text = {"type": "text", "text": "Let me search."}
    reply = decode(message(text, SEARCH, RESULTS, CITED), CLAUDE)
    kwargs = sent([User("When was Claude Shannon born?"), reply, User("And where?")])
    assert kwargs["messages"][1] == {"role": "assistant", "content": [text, SEARCH, RESULTS, CITED]}


def test_a_pause_turn_reply_is_continued_with_its_server_tool_use_in_place() -> None:
    reply = decode(message(SEARCH, stop="pause_turn"), CLAUDE)
    kwargs = sent([User("When was Claude Shannon born?"), reply])
    assert kwargs["messages"][-1] == {"role": "assistant", "content": [SEARCH]}


def test_server_tool_blocks_sit_beside_a_client_tool_call() -> None:
    use = {"type": "tool_use", "id": "toolu_01A", "name": "save_note", "input": {"text": "1916"}}
    reply = decode(message(SEARCH, RESULTS, use, stop="tool_use"), CLAUDE)
    assert isinstance(reply.content[-1], ToolCall)
    history = [
        User("Note Shannon's birth year."),
        reply,
        ToolResult.of("toolu_01A", "save_note", "ok"),
    ]
    kwargs = sent(history)
    assert kwargs["messages"][1]["content"] == [SEARCH, RESULTS, use]


def test_another_provider_gets_the_text_without_claude_s_blocks() -> None:
    reply = decode(message(SEARCH, RESULTS, CITED), CLAUDE)
    kwargs = sent([User("When was Claude Shannon born?"), reply], "openai:gpt-5")
    assert kwargs["input"][1] == {"role": "assistant", "content": CITED["text"]}


def test_the_request_says_which_parts_another_provider_does_not_get() -> None:
    reply = decode(message(SEARCH, RESULTS, CITED), CLAUDE)
    history = [User("When was Claude Shannon born?"), reply, User("Thanks.")]
    assert encode(history, CLAUDE).parts_left_out == []
    left = encode(history, "openai:gpt-5").parts_left_out
    assert [(p.message_index, p.kind) for p in left] == [
        (1, "server_tool_use"),
        (1, "web_search_tool_result"),
        (1, "citations"),
    ]
    assert left[0].reason == (
        "message 1: anthropic's server_tool_use is left out; only anthropic reads it back, "
        "on its anthropic API (the visible text is sent)"
    )
