"""Provider responses built with the official SDKs' own types, shared by the decode tests.

Signatures and encrypted contents are opaque to toolwire: the values here only need the
shape (base64 text, bytes) the provider gives, and must come back exactly.
"""

from __future__ import annotations

from typing import Any

from toolwire.messages import Assistant, ToolResult, User

QUESTION = "What is in notes.md and report.pdf?"
ANTHROPIC_SIGNATURE = "EqQBCkYIBxgCKkDsVZ2n0Xq+tR4lYhf8sQ3mB1x/9wJ1c8N3k5Lw0K1pQ=="
ANTHROPIC_REDACTED = "EmwKAhgBEgy3vaD1pCqM/nq8WfcaDBv2n2ZkD0j8+yT5sA=="
OPENAI_ENCRYPTED = "gAAAAABo3rX8Qz7kVn1Yp0pB9h2Lw4r6Jt8sUe1Xc5MfGd3KaNq=="
#: Raw bytes, as Gemini returns thought signatures (bytes outside ASCII, and bytes that
#: url-safe and standard base64 spell differently: 0xfb 0xff 0xfe give '+', '/').
GEMINI_SIGNATURE = b"\x12\x9a\xfb\xff\xfe\x00gemini-call-signature\xfb\xef"
GEMINI_TEXT_SIGNATURE = b"\xfa\xfb\xfc\xfd\xfe\xff text signature"


def anthropic_thinking_message(*, empty: bool = False) -> Any:
    """A Claude reply with thinking, redacted thinking, text and two parallel tool calls."""
    from anthropic.types import (
        Message,
        RedactedThinkingBlock,
        TextBlock,
        ThinkingBlock,
        ToolUseBlock,
        Usage,
    )

    content = [
        ThinkingBlock(
            type="thinking", thinking="Two files: read both.", signature=ANTHROPIC_SIGNATURE
        ),
        RedactedThinkingBlock(type="redacted_thinking", data=ANTHROPIC_REDACTED),
        TextBlock(type="text", text="Reading both files."),
        ToolUseBlock(type="tool_use", id="toolu_01A", name="read_file", input={"path": "notes.md"}),
        ToolUseBlock(
            type="tool_use", id="toolu_01B", name="read_file", input={"path": "report.pdf"}
        ),
    ]
    return Message(
        id="msg_01XFDUDYJgAACzvnptvVoYEL",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[] if empty else content,
        stop_reason="max_tokens" if empty else "tool_use",
        stop_sequence=None,
        usage=Usage(input_tokens=412, output_tokens=0 if empty else 96),
    )


def tool_results(message: Assistant) -> list[ToolResult]:
    """A text result for every call the message makes, in call order."""
    return [
        ToolResult.of(call.id, call.name, f"contents of {call.arguments.get('path', call.name)}")
        for call in message.tool_calls
    ]


def conversation(*replies: Assistant) -> list[Any]:
    """The question, then each reply followed by the results of its calls."""
    messages: list[Any] = [User(QUESTION)]
    for reply in replies:
        messages += [reply, *tool_results(reply)]
    return messages


def openai_response(output: list[Any], **fields: Any) -> Any:
    """A Responses API ``Response`` holding ``output`` items."""
    from openai.types.responses import Response

    return Response.model_validate(
        {
            "id": "resp_68af4030592c81938ec0a5fbab4a3e9f",
            "object": "response",
            "created_at": 1756315696,
            "model": "gpt-5-2025-08-07",
            "status": "completed",
            "output": [item.model_dump(mode="json") for item in output],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            **fields,
        }
    )


def gemini_response(
    *parts: Any, finish_reason: str = "STOP", response_id: str | None = "rsp-1"
) -> Any:
    """A ``GenerateContentResponse`` whose first candidate holds ``parts`` (google.genai Parts)."""
    from google.genai import types

    return types.GenerateContentResponse(
        response_id=response_id,
        model_version="gemini-3-pro-preview",
        candidates=[
            types.Candidate(
                index=0,
                finish_reason=types.FinishReason(finish_reason),
                content=types.Content(role="model", parts=list(parts)) if parts else None,
            )
        ],
    )


def gemini_parallel_calls(*, ids: bool = True) -> Any:
    """Gemini 3's parallel calls: the thought signature only on the first call of the batch."""
    from google.genai import types

    def call(n: int, path: str) -> types.FunctionCall:
        call_id = f"fc-{n}" if ids else None
        return types.FunctionCall(id=call_id, name="read_file", args={"path": path})

    return gemini_response(
        types.Part(function_call=call(1, "notes.md"), thought_signature=GEMINI_SIGNATURE),
        types.Part(function_call=call(2, "report.pdf")),
    )
