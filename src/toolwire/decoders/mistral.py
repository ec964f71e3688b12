"""Mistral ``ChatCompletionResponse`` → Assistant: text chunks, thinking chunks, tool calls.

mistralai's ``ToolCall.id`` defaults to the string ``"null"``; such calls (and calls without
an id) get ``call_<digest>_<n>`` ids, unique per response (see ``_common.call_ids``).
"""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import call_ids, finish_reason, first_choice, tool_call

_NO_ID = (None, "", "null")


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a Mistral ChatCompletionResponse (as JSON data); ``issuer`` names who signed its thinking."""
    message = first_choice(data, issuer)
    parts: list[Any] = []
    content = message.get("content")
    if isinstance(content, str) and content:
        parts.append(Text(text=content))
    for chunk in content if isinstance(content, list) else []:
        if chunk.get("type") == "text" and chunk.get("text"):
            parts.append(Text(text=chunk["text"]))
        elif chunk.get("type") == "thinking":
            text = "".join(t.get("text", "") for t in chunk.get("thinking") or [])
            parts.append(Thinking(text=text, signature=chunk.get("signature"), provider=issuer))
    calls = message.get("tool_calls") or []
    functions = [call.get("function") or {} for call in calls]
    spare = call_ids(len(calls), data.get("id"), data.get("created"), functions)
    for call, function, fallback_id in zip(calls, functions, spare, strict=True):
        call_id = fallback_id if call.get("id") in _NO_ID else call["id"]
        parts.append(
            tool_call(call_id, function.get("name") or "", function.get("arguments") or "")
        )
    return Assistant(content=parts)


describe_stop = finish_reason
