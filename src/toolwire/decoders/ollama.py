"""Ollama ``ChatResponse`` → Assistant. ``thinking`` becomes Thinking (provider "ollama").

Ollama's tool calls carried no ids (results are matched by tool name on its wire); current
servers (ollama.com) send one, which is kept. A call without one gets ``call_<digest>_<n>``
in order, the digest taken from the response's model, timestamp and calls, so that the calls
of different turns never share an id once the conversation moves to a provider that
requires unique ids.
"""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import call_ids, not_a_response, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in an Ollama ChatResponse (as JSON data); ``issuer`` names who signed its thinking."""
    message = data.get("message")
    if not isinstance(message, dict):
        raise not_a_response("an Ollama ChatResponse (it has no message)", data)
    parts: list[Any] = []
    if message.get("thinking"):
        parts.append(Thinking(text=message["thinking"], provider=issuer))
    if message.get("content"):
        parts.append(Text(text=message["content"]))
    calls = message.get("tool_calls") or []
    functions = [call.get("function") or {} for call in calls]
    made = call_ids(len(functions), data.get("model"), data.get("created_at"), functions)
    sent = [call.get("id") for call in calls]  # current Ollama (ollama.com) sends ids: kept
    ids = [i if isinstance(i, str) and i else m for i, m in zip(sent, made, strict=True)]
    for call_id, function in zip(ids, functions, strict=True):
        parts.append(
            tool_call(call_id, function.get("name") or "", function.get("arguments") or {})
        )
    return Assistant(content=parts)


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"done_reason={data.get('done_reason')}"
