"""Mistral ``ChatCompletionResponse`` → Assistant: text chunks, thinking chunks, tool calls."""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import finish_reason, first_choice, tool_call


def decode(data: dict[str, Any], provider: str) -> Assistant:
    message = first_choice(data, provider)
    parts: list[Any] = []
    content = message.get("content")
    if isinstance(content, str) and content:
        parts.append(Text(text=content))
    for chunk in content if isinstance(content, list) else []:
        if chunk.get("type") == "text" and chunk.get("text"):
            parts.append(Text(text=chunk["text"]))
        elif chunk.get("type") == "thinking":
            text = "".join(t.get("text", "") for t in chunk.get("thinking") or [])
            parts.append(Thinking(text=text, signature=chunk.get("signature"), provider=provider))
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        call_id = call.get("id") or f"call_{index}"
        parts.append(tool_call(call_id, function.get("name", ""), function.get("arguments", "")))
    return Assistant(content=parts)


describe_stop = finish_reason
