"""Decoding Ollama ``ChatResponse`` objects: thinking, content and id-less tool calls."""

from __future__ import annotations

from ollama import ChatResponse, Message
from providers import strict_anthropic, strict_ollama

from toolwire.content import Text, Thinking
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import conversation

MODEL = "ollama:qwen3:8b"


def reply(created_at: str = "2025-09-01T10:00:00.123456789Z") -> ChatResponse:
    calls = [
        Message.ToolCall(
            function=Message.ToolCall.Function(name="read_file", arguments={"path": p})
        )
        for p in ("notes.md", "report.pdf")
    ]
    message = Message(
        role="assistant", content="Reading both files.", thinking="Read both.", tool_calls=calls
    )
    return ChatResponse(
        model="qwen3:8b", created_at=created_at, done=True, done_reason="stop", message=message
    )


def test_thinking_content_and_parallel_calls_decode_with_ids_in_call_order() -> None:
    message = decode(reply(), MODEL)
    assert message.content[:2] == (
        Thinking(text="Read both.", provider="ollama"),
        Text(text="Reading both files."),
    )
    calls = message.tool_calls
    assert [(c.name, c.arguments) for c in calls] == [
        ("read_file", {"path": "notes.md"}),
        ("read_file", {"path": "report.pdf"}),
    ]
    assert calls[0].id.endswith("_0") and calls[1].id.endswith("_1")
    assert calls[0].id.startswith("call_")


def test_decoded_reply_goes_back_with_its_thinking_and_calls() -> None:
    kwargs = encode(conversation(decode(reply(), MODEL)), MODEL).kwargs
    strict_ollama.validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": "Reading both files.",
        "thinking": "Read both.",
        "tool_calls": [
            {"function": {"name": "read_file", "arguments": {"path": "notes.md"}}},
            {"function": {"name": "read_file", "arguments": {"path": "report.pdf"}}},
        ],
    }
    assert [m["tool_name"] for m in kwargs["messages"][2:]] == ["read_file", "read_file"]


def test_json_dict_of_the_response_decodes_like_the_object() -> None:
    response = reply()
    assert decode(response.model_dump(mode="json"), MODEL) == decode(response, MODEL)


def test_ids_differ_between_turns_so_the_history_can_move_to_anthropic() -> None:
    """Anthropic rejects a request whose tool_use ids repeat anywhere in the conversation."""
    first = decode(reply("2025-09-01T10:00:00.1Z"), MODEL)
    second = decode(reply("2025-09-01T10:00:05.2Z"), MODEL)
    ids = [c.id for c in first.tool_calls + second.tool_calls]
    assert len(set(ids)) == 4
    kwargs = encode(conversation(first, second), "anthropic:claude-sonnet-4-5").kwargs
    strict_anthropic.validate(kwargs)
    uses = [b["id"] for m in kwargs["messages"] for b in m["content"] if b["type"] == "tool_use"]
    assert uses == ids


def test_ids_the_server_sent_are_kept() -> None:
    """Current Ollama (ollama.com) sends tool-call ids: the JSON reply keeps them, a call
    without one still gets a stable made-up id."""
    data = reply().model_dump(mode="json")
    data["message"]["tool_calls"][0]["id"] = "call_mo1wm122"
    calls = decode(data, MODEL).tool_calls
    assert calls[0].id == "call_mo1wm122"
    assert calls[1].id.startswith("call_") and calls[1].id.endswith("_1")
