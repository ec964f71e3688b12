"""Cohere v2 ``ChatResponse`` → Assistant. ``tool_plan`` becomes Thinking (provider "cohere"),
which the Cohere encoder sends back as the message's tool_plan."""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import not_a_response, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a Cohere v2 ChatResponse (as JSON data); ``issuer`` names who signed its thinking."""
    message = data.get("message")
    if not isinstance(message, dict):
        raise not_a_response("a Cohere v2 ChatResponse (it has no message)", data)
    parts: list[Any] = []
    if message.get("tool_plan"):
        parts.append(Thinking(text=message["tool_plan"], provider=issuer))
    for item in message.get("content") or []:
        if item.get("type") == "thinking" and item.get("thinking"):
            parts.append(Thinking(text=item["thinking"], provider=issuer))
        elif item.get("type") == "text" and item.get("text"):
            parts.append(Text(text=item["text"]))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(
            tool_call(call["id"], function.get("name") or "", function.get("arguments") or "")
        )
    return Assistant(content=parts)


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"finish_reason={data.get('finish_reason')}"
