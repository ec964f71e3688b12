"""Chat Completions ``ChatCompletion`` → Assistant (OpenAI, Groq, xAI, OpenRouter, compatible).

Reasoning text that some servers return (``reasoning_content``, ``reasoning``) is kept as
unsigned Thinking of the target's issuer: it goes back where the target's table says the
server takes it (``reasoning_replay``), to that issuer only. A refusal is the message's text.
"""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import finish_reason, first_choice, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a ChatCompletion (as JSON data); ``issuer`` names who signed its thinking."""
    message = first_choice(data, issuer)
    parts: list[Any] = []
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if isinstance(reasoning, str) and reasoning:
        parts.append(Thinking(text=reasoning, provider=issuer))
    content = message.get("content")
    if isinstance(content, str) and content:
        parts.append(Text(text=content))
    elif isinstance(content, list):
        parts += [
            Text(text=c["text"]) for c in content if c.get("type") == "text" and c.get("text")
        ]
    if message.get("refusal") and not content:
        parts.append(Text(text=message["refusal"]))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(
            tool_call(call["id"], function.get("name") or "", function.get("arguments") or "")
        )
    return Assistant(content=parts)


describe_stop = finish_reason
