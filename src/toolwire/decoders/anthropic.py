"""Anthropic ``Message`` → Assistant: text, tool_use, thinking and redacted_thinking in order."""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import not_a_response, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in an Anthropic Message (as JSON data); ``issuer`` names who signed its thinking."""
    if data.get("type") == "error":
        raise DecodeError(f"{issuer} returned an error: {data.get('error')}")
    if not isinstance(data.get("content"), list):
        raise not_a_response("an Anthropic Message (it has no content list)", data)
    parts: list[Any] = []
    for block in data.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(Text(text=block["text"]))
        elif kind == "tool_use":
            parts.append(tool_call(block["id"], block["name"], block.get("input") or {}))
        elif kind == "thinking":
            parts.append(
                Thinking(text=block["thinking"], signature=block.get("signature"), provider=issuer)
            )
        elif kind == "redacted_thinking":
            parts.append(Thinking(text="", signature=block["data"], redacted=True, provider=issuer))
    return Assistant(content=parts)


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"stop_reason={data.get('stop_reason')}"
