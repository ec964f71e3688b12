"""Ollama ``ChatResponse`` → Assistant. Ollama's tool calls carry no ids: they get
``call_0``, ``call_1``… in order (results are matched by tool name on Ollama's wire)."""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import tool_call


def decode(data: dict[str, Any], provider: str) -> Assistant:
    message = data.get("message")
    if not isinstance(message, dict):
        raise DecodeError(f"{provider} response has no message: {data.get('error') or data}")
    parts: list[Any] = []
    if message.get("thinking"):
        parts.append(Thinking(text=message["thinking"], provider=provider))
    if message.get("content"):
        parts.append(Text(text=message["content"]))
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        parts.append(
            tool_call(f"call_{index}", function.get("name", ""), function.get("arguments") or {})
        )
    return Assistant(content=parts)


def describe_stop(data: dict[str, Any]) -> str:
    return f"done_reason={data.get('done_reason')}"
