"""Cohere v2 ``ChatResponse`` → Assistant. ``tool_plan`` becomes Thinking (provider "cohere"),
which the Cohere encoder sends back as the message's tool_plan."""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import tool_call


def decode(data: dict[str, Any], provider: str) -> Assistant:
    message = data.get("message")
    if not isinstance(message, dict):
        raise DecodeError(
            f"{provider} response has no message: finish_reason={data.get('finish_reason')}"
        )
    parts: list[Any] = []
    if message.get("tool_plan"):
        parts.append(Thinking(text=message["tool_plan"], provider=provider))
    for item in message.get("content") or []:
        if item.get("type") == "thinking" and item.get("thinking"):
            parts.append(Thinking(text=item["thinking"], provider=provider))
        elif item.get("type") == "text" and item.get("text"):
            parts.append(Text(text=item["text"]))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(tool_call(call["id"], function.get("name", ""), function.get("arguments", "")))
    return Assistant(content=parts)


def describe_stop(data: dict[str, Any]) -> str:
    return f"finish_reason={data.get('finish_reason')}"
